import { sql, type SQL } from "drizzle-orm";

// Latin letters with the diacritics found in Brazilian place names, and their plain letters.
const ACCENTED = "ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ";
const PLAIN = "AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy";
if ([...ACCENTED].length !== [...PLAIN].length) throw new Error("fold: translate tables differ in length");

/**
 * Accent-, case- and spacing-free form of a text, in SQL. Immutable (translate, lower,
 * regexp_replace), so it can back generated columns; `unaccent()` is not, and PGlite lacks it.
 */
export const foldSql = (value: SQL): SQL =>
  sql`lower(translate(regexp_replace(btrim(${value}), '[[:space:]]+', ' ', 'g'), ${sql.raw(`'${ACCENTED}'`)}, ${sql.raw(`'${PLAIN}'`)}))`;

/**
 * The address form of a folded text (foldSql's output): runs of anything but a-z and 0-9 become one
 * '-', none at either end. 'São João del-Rei' folds to 'sao joao del-rei' and reads 'sao-joao-del-rei'.
 */
export const slugSql = (folded: SQL): SQL => sql`btrim(regexp_replace(${folded}, '[^a-z0-9]+', '-', 'g'), '-')`;
