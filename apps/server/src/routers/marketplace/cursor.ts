import { accessMessages, isCalendarDate, marketplaceFilterMessages, marketplaceMessages, MARKETPLACE_SORTS, type MarketplaceSort } from "@elo/shared";
import { sql, type SQL } from "drizzle-orm";
import { AppError } from "../../trpc/errors";

/** The sort key of the last card of a page: the next page starts right after it. */
export interface MarketplaceCursor {
  gold: boolean;
  /** Postgres' own text of created_at, microseconds included (a JS Date would round them off). */
  createdAt: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::(\d{2}))?)$/;

/**
 * True for a moment PostgreSQL's timestamptz cast accepts and we could have written: a real calendar
 * day (no 30 February), 00:00:00 to 23:59:59 (Postgres itself takes 24:00:00 and 23:59:60), an offset
 * within ±14:59 (Postgres fails past ±15:59 with an error, not a refusal).
 */
function isMoment(text: string): boolean {
  const m = TIMESTAMP.exec(text);
  if (!m) return false;
  const [, day, hh, mm, ss, offH = "00", offM = "00"] = m;
  return isCalendarDate(day!) && Number(hh) <= 23 && Number(mm) <= 59 && Number(ss) <= 59 && Number(offH) <= 14 && Number(offM) <= 59;
}

export function encodeCursor(c: MarketplaceCursor): string {
  return Buffer.from(`${c.gold ? 1 : 0}|${c.createdAt}|${c.id}`).toString("base64url");
}

/** Parses a cursor from the client; anything that is not one of ours is a bad request. */
export function decodeCursor(text: string): MarketplaceCursor {
  const [gold, createdAt, id, ...rest] = Buffer.from(text, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || (gold !== "0" && gold !== "1") || !createdAt || !isMoment(createdAt) || !id || !UUID.test(id)) {
    throw new AppError("BAD_REQUEST", { title: accessMessages.validationTitle, description: marketplaceMessages.invalidCursor });
  }
  return { gold: gold === "1", createdAt, id };
}

/** Cards strictly after the cursor in the order gold desc, created_at desc, id (alias `i`; `id` names the id column). */
export function afterCursor(c: MarketplaceCursor | null, id: SQL = sql`i.id`): SQL {
  if (!c) return sql`true`;
  const at = sql`${c.createdAt}::timestamptz`;
  return sql`(
    i.gold < ${c.gold}
    or (i.gold = ${c.gold} and (i.created_at < ${at} or (i.created_at = ${at} and ${id} > ${c.id}::uuid)))
  )`;
}

/**
 * The cursor of a page in any order (decision 170): the sort's first key (`key`: the Gold flag as
 * 1/0 in the default order, the percentage or the fee as PostgreSQL's numeric text, the scope's
 * rank, 0 for newest), then created_at and id. The default order keeps decision 086's format.
 */
export interface SortCursor {
  sort: MarketplaceSort;
  key: string;
  createdAt: string;
  id: string;
}

const SORT_KEY = /^-?\d{1,12}(?:\.\d{1,2})?$/;

export function encodeSortCursor(c: SortCursor): string {
  if (c.sort === "default") return encodeCursor({ gold: c.key === "1", createdAt: c.createdAt, id: c.id });
  return Buffer.from(`${c.sort}|${c.key}|${c.createdAt}|${c.id}`).toString("base64url");
}

/** Parses a cursor for a page in `sort`; a cursor of another order, or not ours, is a bad request. */
export function decodeSortCursor(text: string, sort: MarketplaceSort): SortCursor {
  const parts = Buffer.from(text, "base64url").toString("utf8").split("|");
  if (parts.length === 3) {
    const c = decodeCursor(text);
    if (sort !== "default") throw badSort();
    return { sort, key: c.gold ? "1" : "0", createdAt: c.createdAt, id: c.id };
  }
  const [name, key, createdAt, id, ...rest] = parts;
  if (rest.length > 0 || !MARKETPLACE_SORTS.includes(name as MarketplaceSort) || name === "default" || !key || !SORT_KEY.test(key) || !createdAt || !isMoment(createdAt) || !id || !UUID.test(id)) {
    throw new AppError("BAD_REQUEST", { title: accessMessages.validationTitle, description: marketplaceMessages.invalidCursor });
  }
  if (name !== sort) throw badSort();
  return { sort, key, createdAt, id };
}

const badSort = () => new AppError("BAD_REQUEST", { title: accessMessages.validationTitle, description: marketplaceFilterMessages.invalidCursorForSort });
