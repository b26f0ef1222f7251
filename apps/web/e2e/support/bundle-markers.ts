/**
 * Strings that only server code carries. Each survives minification (string literals, error codes,
 * symbol names), so finding one in the web bundle means server code was pulled in.
 */
export const serverMarkers: { what: string; pattern: RegExp }[] = [
  { what: "drizzle-orm", pattern: /drizzle:(Name|Columns|BaseName|IsAlias)|drizzle-orm/ },
  { what: "fastify", pattern: /FST_ERR_[A-Z_]+|@fastify\// },
  { what: "argon2", pattern: /@node-rs\/argon2|argon2id/ },
  { what: "postgres driver", pattern: /SCRAM-SHA-256|@electric-sql\/pglite/ },
  { what: "password hash", pattern: /\$argon2(id|i|d)\$v=\d+\$|password_hash/ },
];

/** The markers found in a piece of code, with a little context around each. */
export function findServerMarkers(code: string): string[] {
  const found: string[] = [];
  for (const { what, pattern } of serverMarkers) {
    const m = pattern.exec(code);
    if (m) found.push(`${what}: …${code.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40)}…`);
  }
  return found;
}
