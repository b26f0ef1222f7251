import { normalizeKey } from "@elo/shared";

/** The address form of a name: accents folded, lower-case, runs of anything but a-z and 0-9 as one '-'. */
export function slugify(name: string): string {
  return normalizeKey(name)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const UUID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:-(.*))?$/;

/** The school id and slug of a page's last segment `{id}-{slug}`; null when it does not start with an id. */
export function parseSchoolSegment(segment: string): { id: string; slug: string } | null {
  const m = UUID.exec(segment.toLowerCase());
  return m ? { id: m[1]!, slug: m[2] ?? "" } : null;
}

/** The paths of the public pages (decision 160). */
export const publicPaths = {
  states: () => "/escolas",
  state: (uf: string) => `/escolas/${uf.toLowerCase()}`,
  city: (uf: string, citySlug: string) => `/escolas/${uf.toLowerCase()}/${citySlug}`,
  school: (uf: string, citySlug: string, id: string, name: string) => `/escolas/${uf.toLowerCase()}/${citySlug}/${id}-${slugify(name) || "escola"}`,
};
