import { describe, expect, it } from "vitest";
import { createUser } from "../support/factories/users";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s), { env: { RATE_LIMIT: "1" } });

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/trpc/${path}`, { method: "POST", headers: { origin: TEST_ORIGIN, "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("auth over HTTP", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie on login, and the cookie authenticates", async () => {
    const user = await createUser(h);
    const res = await post("auth.login", { json: { email: user.email, password: user.password } });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^elo_session=[a-z0-9]+;/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    const me = await fetch(`${server.url}/trpc/auth.me`, { headers: { cookie: setCookie.split(";")[0]! } });
    expect(JSON.stringify(await me.json())).toContain(user.email);
  });

  it("refuses a login posted from a foreign origin", async () => {
    const user = await createUser(h);
    const res = await post("auth.login", { json: { email: user.email, password: user.password } }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("limits logins per IP, batched calls included, with a Portuguese toast", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await post("auth.login", { json: { email: `x${i}@teste.com.br`, password: "errada" } })).status);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const limited = await post("auth.login", { json: { email: "y@teste.com.br", password: "errada" } });
    expect(limited.status).toBe(429);
    const body = (await limited.json()) as { error: { json: { data: { toast: { title: string } } } } };
    expect(body.error.json.data.toast.title).toBe("Muitas requisições. Aguarde um instante e tente novamente.");
    const batch = await fetch(`${server.url}/trpc/auth.me,auth.login?batch=1`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ 0: { json: null }, 1: { json: { email: "z@teste.com.br", password: "x" } } }),
    });
    expect(batch.status).toBe(429);
    expect(await batch.json()).toHaveLength(2);
    // Other procedures are not limited.
    expect((await fetch(`${server.url}/trpc/reference.states`)).status).toBe(200);
  });
});
