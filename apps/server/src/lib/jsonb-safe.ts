/** Lone UTF-16 surrogates, which PostgreSQL's jsonb refuses; text columns get U+FFFD for them. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A text as PostgreSQL stores it: each lone surrogate replaced by U+FFFD. */
export const wellFormed = (text: string) => text.replace(LONE_SURROGATE, "\ufffd");

/** Data as jsonb will take it (a school name typed with a lone surrogate must not undo the school). */
export const jsonbSafe = (data: unknown): unknown => JSON.parse(JSON.stringify(data, (_key, v: unknown) => (typeof v === "string" ? wellFormed(v) : v)));
