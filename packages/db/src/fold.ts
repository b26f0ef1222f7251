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
