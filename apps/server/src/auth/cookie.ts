import type { Config } from "../config";

/** The session cookie's name: `__Host-` prefixed (and so Secure) in production. */
export const sessionCookieName = (config: Pick<Config, "isProduction">) => (config.isProduction ? "__Host-elo_session" : "elo_session");

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, expires: Date): void;
  clear(name: string): void;
}

/** A cookie jar in memory, for tests calling procedures without HTTP. */
export function memoryCookieJar(initial: Record<string, string> = {}): CookieJar & { values: Record<string, string> } {
  const values = { ...initial };
  return {
    values,
    get: (name) => values[name],
    set: (name, value) => {
      values[name] = value;
    },
    clear: (name) => {
      delete values[name];
    },
  };
}
