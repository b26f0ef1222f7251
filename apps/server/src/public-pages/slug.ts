import { normalizeKey } from "@elo/shared";

/** The address form of a name: accents folded, lower-case, runs of anything but a-z and 0-9 as one '-'. */
export function slugify(name: string): string {
  return normalizeKey(name)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const UUID_SOURCE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const UUID = new RegExp(`^(${UUID_SOURCE})(?:-(.*))?$`);
/** An id at the start, not followed by another letter or digit. */
const LEADING_UUID = new RegExp(`^(${UUID_SOURCE})(?![0-9a-z])`, "i");

/** The school id and slug of a page's last segment `{id}-{slug}`; null when it does not start with an id. */
export function parseSchoolSegment(segment: string): { id: string; slug: string } | null {
  const m = UUID.exec(segment.toLowerCase());
  return m ? { id: m[1]!, slug: m[2] ?? "" } : null;
}

/**
 * The benefit id a 'Quero este desconto' link's last segment starts with, lower-case; null when it
 * does not start with one. What a pasted or forwarded link drags after the id (a space, a full
 * stop, a bracket) is ignored, as the school pages' slugs already are.
 */
export function benefitIdOf(segment: string): string | null {
  const m = LEADING_UUID.exec(segment);
  return m ? m[1]!.toLowerCase() : null;
}

/** The paths of the public pages (decision 160). */
export const publicPaths = {
  states: () => "/escolas",
  state: (uf: string) => `/escolas/${uf.toLowerCase()}`,
  city: (uf: string, citySlug: string) => `/escolas/${uf.toLowerCase()}/${citySlug}`,
  school: (uf: string, citySlug: string, id: string, name: string) => `/escolas/${uf.toLowerCase()}/${citySlug}/${id}-${slugify(name) || "escola"}`,
};

/** The first segments the public pages live under: their addresses are lower-case, without a final slash. */
const PUBLIC_ROOTS = new Set(["escolas", "quero-este-desconto", "sitemaps", "sitemap.xml", "robots.txt"]);

/**
 * The address of the public page a request target stands for (decision 226): for `/escolas/` or
 * `/escolas/sp/sao-paulo/` (a final slash, as a pasted or shared link often carries), `/ESCOLAS/sp`
 * or `//escolas`, the same path lower-case, slashes folded and none at the end, its query kept;
 * null when that changes nothing or the path is not a public page's (preview images keep their own
 * addresses). The result always starts with one "/" and a public root, so it can never send the
 * visitor to another site.
 */
export function canonicalPublicTarget(target: string): string | null {
  if (!target.startsWith("/")) return null;
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  const segments = path.split("/").filter(Boolean);
  if (!PUBLIC_ROOTS.has(segments[0]?.toLowerCase() ?? "")) return null;
  // Preview images: versioned addresses in their own case, read by crawlers from the pages' tags.
  if (segments[1] === "imagem") return null;
  // Under /escolas every segment is a slug: `são-paulo`, `Sao%20Paulo` or `s%C3%A3o-paulo` (a link
  // typed or shared with the city's real name) is `sao-paulo` (decision 226 amended).
  const slugs = segments[0]!.toLowerCase() === "escolas" && segments[1]?.toLowerCase() !== "imagem";
  const folded = segments.map((segment, i) => (i > 0 && slugs ? slugOfSegment(segment) : segment.toLowerCase()));
  const canonical = `/${folded.join("/")}`;
  return canonical === path ? null : canonical + (q < 0 ? "" : target.slice(q));
}

/** A segment under /escolas as its page's address spells it; lower-cased only when it is not valid percent-encoding or nothing would be left. */
function slugOfSegment(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return segment.toLowerCase();
  }
  return slugify(decoded) || segment.toLowerCase();
}
