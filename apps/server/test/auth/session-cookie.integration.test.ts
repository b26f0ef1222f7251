import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createSession } from "../../src/auth/session";
import { hashSecret } from "../../src/auth/tokens";
import { createUser } from "../support/factories/users";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const DAY = 24 * 60 * 60 * 1000;
const me = (cookie: string) => fetch(`${server.url}/trpc/auth.me`, { headers: { cookie } });
const expiresOf = (setCookie: string | null) => new Date(/Expires=([^;]+)/i.exec(setCookie ?? "")![1]!);

describe("session cookie over HTTP (the browser's copy follows the database)", () => {
  it("is re-sent with the new expiry when use extends the session (16 days later)", async () => {
    const user = await createUser(h);
    const { token } = await createSession(h.db, h.clock, user.id);
    const cookie = `elo_session=${token}`;

    // Early in its life the session is not extended: no Set-Cookie on every request.
    h.clock.advance(DAY);
    expect((await me(cookie)).headers.get("set-cookie")).toBeNull();

    h.clock.advance(15 * DAY);
    const res = await me(cookie);
    expect(JSON.stringify(await res.json())).toContain(user.email);
    const setCookie = res.headers.get("set-cookie");
    expect(setCookie).toMatch(new RegExp(`^elo_session=${token};`));
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const [row] = await h.db.select({ expiresAt: schema.sessions.expiresAt }).from(schema.sessions).where(eq(schema.sessions.id, hashSecret(token)));
    expect(expiresOf(setCookie).getTime()).toBe(Math.floor(row!.expiresAt.getTime() / 1000) * 1000);
    expect(row!.expiresAt.getTime()).toBe(h.clock.now().getTime() + 30 * DAY);

    // Right after the extension, nothing more to send.
    expect((await me(cookie)).headers.get("set-cookie")).toBeNull();
  });

  it("is cleared when the token is expired or unknown", async () => {
    const user = await createUser(h);
    const { token } = await createSession(h.db, h.clock, user.id);
    h.clock.advance(31 * DAY);
    for (const cookie of [`elo_session=${token}`, "elo_session=nao-existe"]) {
      const res = await me(cookie);
      const setCookie = res.headers.get("set-cookie");
      expect(setCookie).toMatch(/^elo_session=;/);
      expect(expiresOf(setCookie).getTime()).toBeLessThan(Date.now());
    }
  });

  it("a login with a stale cookie still ends with the new session's cookie", async () => {
    const user = await createUser(h);
    const res = await fetch(`${server.url}/trpc/auth.login`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json", cookie: "elo_session=velho" },
      body: JSON.stringify({ json: { email: user.email, password: user.password } }),
    });
    expect(res.status).toBe(200);
    const cookies = res.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^elo_session=[a-z0-9]{20,};/);
  });
});
