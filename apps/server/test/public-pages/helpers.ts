import { formatBRL } from "@elo/shared";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Harness } from "../support/harness";
import { createDiscount, type DiscountOptions } from "../support/factories/benefits";
import { createSchool, createStaff, type SchoolOptions } from "../support/factories/schools";

/** A school in the network (approved staff), with a Gold plan unless told otherwise, and its benefits. */
export async function networkSchool(h: Pick<Harness, "db">, opts: SchoolOptions & { staff?: boolean; benefits?: DiscountOptions[] } = {}) {
  const school = await createSchool(h, { niche: "Idiomas", plan: "gold", ...opts });
  if (opts.staff !== false) await createStaff(h, school.id);
  const benefits = [];
  for (const b of opts.benefits ?? []) benefits.push(await createDiscount(h, school.id, b));
  return { school, benefits };
}

export async function setSchool(h: Pick<Harness, "db">, id: string, values: Partial<typeof schema.schools.$inferInsert>) {
  await h.db.update(schema.schools).set({ ...values, updatedAt: new Date() }).where(eq(schema.schools.id, id));
}

/** The page's text as a reader sees it: the body without tags, scripts or styles, entities decoded. */
export function visibleText(html: string): string {
  const body = html.slice(html.indexOf("<body"));
  return body
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;|\u00a0/g, " ")
    .replace(/\s+/g, " ");
}

/** Every JSON-LD block of a page, parsed. */
export function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
}

/** A head tag's attribute: `meta(html, 'name="robots"')` gives its content. */
export function meta(html: string, selector: string): string | null {
  const tag = new RegExp(`<meta ${selector.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} content="([^"]*)"`).exec(html);
  return tag ? tag[1]!.replace(/&amp;/g, "&") : null;
}

export const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1] ?? null;

/**
 * The JSON-LD's leaf values that a reader must find in the page's text: every string but addresses
 * (url, item, logo, @-keys, schema.org enumerations, the country code) and every price, as the page
 * writes it (R$ 1.234,56).
 */
export function textValues(block: unknown, key = ""): string[] {
  if (Array.isArray(block)) return block.flatMap((v) => textValues(v, key));
  if (block && typeof block === "object") return Object.entries(block).flatMap(([k, v]) => textValues(v, k));
  if (key.startsWith("@") || ["url", "item", "logo", "availability", "priceCurrency", "addressCountry", "position"].includes(key)) return [];
  if (key === "price") return [formatBRL(Number(block))];
  return typeof block === "string" ? [block] : [];
}

export { eventually } from "../support/eventually";
