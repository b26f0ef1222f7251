import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accessMessages } from "@elo/shared";
import { describe, expect, it } from "vitest";
import { createSession } from "../../src/auth/session";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { createUser } from "../support/factories/users";
import { rawConnection, rawRequest } from "../support/raw-http";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

describe("HTTP shell", () => {
  it("/healthz answers 200 with the database up", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok" });
  });

  it("serves tRPC queries at /trpc", async () => {
    const res = await fetch(`${server.url}/trpc/reference.states`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { data: { json: unknown[] } } };
    expect(body.result.data.json).toHaveLength(27);
  });

  it("sends a procedure's JSON with its length in one piece, and still streams a jsonl batch (decision 150)", async () => {
    const plain = await fetch(`${server.url}/trpc/reference.states`);
    expect(plain.headers.get("content-length")).toBe(String((await plain.clone().arrayBuffer()).byteLength));
    expect(plain.headers.get("transfer-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("trpc-accept, accept");
    const batch = await fetch(`${server.url}/trpc/reference.states,auth.me?batch=1&input=${encodeURIComponent("{}")}`);
    expect(batch.headers.get("content-length")).not.toBeNull();
    expect(((await batch.json()) as unknown[]).length).toBe(2);
    const streamed = await fetch(`${server.url}/trpc/reference.states,auth.me?batch=1&input=${encodeURIComponent("{}")}`, { headers: { "trpc-accept": "application/jsonl" } });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("transfer-encoding")).toBe("chunked");
    expect(streamed.headers.get("content-length")).toBeNull();
    expect(await streamed.text()).toContain('"name":"Acre"');
  });

  it("refuses a mutation without an allowed Origin, and accepts it with one", async () => {
    const user = await createUser(h);
    const { token } = await createSession(h.db, h.clock, user.id);
    const cookie = `elo_session=${token}`;
    const foreign = await fetch(`${server.url}/trpc/auth.logout`, { method: "POST", headers: { cookie, origin: "https://evil.example", "content-type": "application/json" }, body: "{}" });
    expect(foreign.status).toBe(403);
    const none = await fetch(`${server.url}/trpc/auth.logout`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "{}" });
    expect(none.status).toBe(403);
    const me = await fetch(`${server.url}/trpc/auth.me`, { headers: { cookie } });
    expect(((await me.json()) as { result: { data: { json: { email: string } } } }).result.data.json.email).toBe(user.email);
    const ok = await fetch(`${server.url}/trpc/auth.logout`, { method: "POST", headers: { cookie, origin: TEST_ORIGIN, "content-type": "application/json" }, body: "{}" });
    expect(ok.status).toBe(200);
  });

  it("answers UNAUTHORIZED on a protected procedure without a session", async () => {
    const res = await fetch(`${server.url}/trpc/auth.logout`, { method: "POST", headers: { origin: TEST_ORIGIN, "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
  });

  it("sends zod field errors in the response, keyed by field", async () => {
    const res = await fetch(`${server.url}/trpc/auth.signup`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ json: { profileType: "parent", fullName: "Maria", email: "não-é-email", password: "Girassol-Azul-42", stateId: 1, cityId: 1, neighborhoodId: 1, termsAccepted: true, dataProcessingConsent: true } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { json: { data: { code: string; fieldErrors: Record<string, string[]>; toast: { title: string; description?: string } } } } };
    expect(body.error.json.data.code).toBe("BAD_REQUEST");
    expect(body.error.json.data.fieldErrors.email).toEqual(["Email inválido"]);
    expect(body.error.json.data.fieldErrors.password).toBeUndefined();
    expect(body.error.json.data.toast.description).toBe("Email inválido");
  });

  it("answers the router's own refusals in Portuguese, and a malformed Host with 400 (decision 223)", async () => {
    type Refusal = { error: { json: { message: string; data: { code: string; toast: { title: string } } } } };
    const refusal = async (res: Response, status: number, code: string, message: string) => {
      expect(res.status).toBe(status);
      const body = (await res.json()) as Refusal;
      expect(body.error.json.data.code).toBe(code);
      expect(body.error.json.message).toBe(message);
      expect(body.error.json.data.toast.title).toBe(message);
    };
    const post = (procedure: string, body: string, type = "application/json") =>
      fetch(`${server.url}/trpc/${procedure}`, { method: "POST", headers: { origin: TEST_ORIGIN, "content-type": type }, body });
    await refusal(await post("auth.login", "{bad"), 400, "BAD_REQUEST", accessMessages.unreadableRequest);
    await refusal(await fetch(`${server.url}/trpc/reference.cities?input=${encodeURIComponent("{")}`), 400, "BAD_REQUEST", accessMessages.unreadableRequest);
    await refusal(await fetch(`${server.url}/trpc/reference.statez`), 404, "NOT_FOUND", accessMessages.unknownProcedure("reference.statez"));
    await refusal(await fetch(`${server.url}/trpc/auth.logout`), 405, "METHOD_NOT_SUPPORTED", accessMessages.wrongMethod);
    await refusal(await post("auth.login", "{}", "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE", accessMessages.unsupportedContentType);
    // Refused by Fastify before tRPC runs: a content type it has no parser for, a body over its limit.
    await refusal(await post("auth.login", "{}", "application/octet-stream"), 415, "UNSUPPORTED_MEDIA_TYPE", accessMessages.unsupportedContentType);
    await refusal(await post("auth.login", JSON.stringify({ json: { email: "a".repeat(2 * 1024 * 1024) } })), 413, "PAYLOAD_TOO_LARGE", accessMessages.payloadTooLarge);

    // tRPC's adapter threw on the URL and Fastify answered 500; a Host that is no authority is the client's error.
    for (const method of ["GET", "POST"]) {
      const connection = await rawConnection(server.url);
      const body = method === "POST" ? "{}" : "";
      const [answer] = await connection.send([`${method} /trpc/reference.states HTTP/1.1\r\nhost: a b\r\ncontent-type: application/json\r\norigin: ${TEST_ORIGIN}\r\ncontent-length: ${body.length}\r\n\r\n${body}`]);
      const res = (await answer)!;
      connection.close();
      expect(res.status, method).toBe(400);
      expect((JSON.parse(res.body) as Refusal).error.json.data.toast.title).toBe(accessMessages.badHost);
    }

    // Methods tRPC does not serve: a 405 naming GET and POST, never a logged 500 (TRACE made undici's
    // Request throw) nor a 415 about the content type (PUT, DELETE, PATCH, OPTIONS).
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const connection = await rawConnection(server.url);
      const [answer] = await connection.send([rawRequest(server.url, method, "/trpc/auth.me", { origin: TEST_ORIGIN, "content-type": "application/json" }, "{}")]);
      const res = (await answer)!;
      connection.close();
      expect([method, res.status, res.headers.allow]).toEqual([method, 405, "GET, POST"]);
      expect((JSON.parse(res.body) as Refusal).error.json.data.code).toBe("METHOD_NOT_SUPPORTED");
      expect((JSON.parse(res.body) as Refusal).error.json.data.toast.title).toBe(accessMessages.wrongMethod);
    }
  });

  it("answers Fastify's own refusals outside /trpc in Portuguese, in the 404's shape (decision 225)", async () => {
    const post = (url: string, body: string, type = "application/json") =>
      fetch(`${server.url}${url}`, { method: "POST", headers: { origin: TEST_ORIGIN, "content-type": type }, body });
    const big = JSON.stringify({ a: "a".repeat(2 * 1024 * 1024) });
    for (const url of ["/healthz", "/files/avatars/x", "/nao-existe", "/api/uploads/proof?x=1"]) {
      const tooLarge = await post(url, big);
      expect(tooLarge.status, url).toBe(413);
      expect(await tooLarge.json(), url).toEqual({ error: accessMessages.payloadTooLarge });
      const unreadable = await post(url, "{bad");
      expect(unreadable.status, url).toBe(400);
      expect(await unreadable.json(), url).toEqual({ error: accessMessages.unreadableBody });
    }
    // Paths Fastify cannot route (a bad percent-encoding, a segment over the router's limit) were
    // answered before any hook: English JSON echoing the path, no security headers.
    const long = "a".repeat(6000);
    for (const [url, status] of [["/escolas%", 400], ["/%", 400], [`/files/%E0%A4%A`, 400], [`/escolas/sp/${long}`, 414]] as const) {
      const res = await fetch(`${server.url}${url}`);
      expect([url.slice(0, 20), res.status], url).toEqual([url.slice(0, 20), status]);
      expect(await res.json(), url).toEqual({ error: accessMessages.badRequest });
      expect(res.headers.get("content-security-policy"), url).toContain("frame-ancestors 'none'");
    }
    for (const url of ["/trpc/auth.me%E0", `/trpc/${long}`]) {
      const res = await fetch(`${server.url}${url}`);
      const body = (await res.json()) as { error: { json: { message: string; data: { code: string } } } };
      expect([url.slice(0, 20), res.status >= 400 && res.status < 500, body.error.json.data.code, body.error.json.message]).toEqual([url.slice(0, 20), true, "BAD_REQUEST", accessMessages.badRequest]);
      expect(res.headers.get("content-security-policy"), url).toContain("frame-ancestors 'none'");
    }
  });

  it("serves hashed assets as immutable and the app's page as revalidated", async () => {
    const web = mkdtempSync(path.join(tmpdir(), "elo-web-"));
    mkdirSync(path.join(web, "assets"));
    writeFileSync(path.join(web, "index.html"), "<!doctype html><title>Elo Escolar</title>");
    writeFileSync(path.join(web, "assets", "app-abc123.js"), "console.log(1)");
    const withWeb = await h.startServer({ WEB_DIST: web });
    try {
      const asset = await fetch(`${withWeb.url}/assets/app-abc123.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const page = await fetch(`${withWeb.url}/home`);
      expect(await page.text()).toContain("Elo Escolar");
      expect(page.headers.get("cache-control")).toBe("no-cache");
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    } finally {
      await withWeb.close();
    }
  });

  it("sets the security headers on every kind of answer", async () => {
    for (const path of ["/healthz", "/trpc/auth.me", "/trpc/nao.existe", "/api/nao-existe"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("content-security-policy"), path).toContain("script-src 'self'");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
      expect(res.headers.get("cross-origin-embedder-policy"), path).toBeNull();
    }
  });

  it("in production, the session cookie is __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/ and expires with the session", async () => {
    const origin = "https://eloescolar.test";
    const prod = await h.startServer({ NODE_ENV: "production", PUBLIC_URL: origin });
    try {
      const user = await createUser(h);
      const res = await fetch(`${prod.url}/trpc/auth.login`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ json: { email: user.email, password: user.password } }),
      });
      expect(res.status).toBe(200);
      const [cookie, ...others] = res.headers.getSetCookie();
      expect(others).toEqual([]);
      const [pair, ...attributes] = cookie!.split(/;\s*/);
      expect(pair).toMatch(/^__Host-elo_session=[^;]{20,}$/);
      const attrs = new Map(attributes.map((a) => [a.split("=")[0]!.toLowerCase(), a.split("=")[1] ?? ""]));
      expect([...attrs.keys()].sort()).toEqual(["expires", "httponly", "path", "samesite", "secure"]);
      expect(attrs.get("path")).toBe("/");
      expect(attrs.get("samesite")).toBe("Lax");
      // __Host- forbids a Domain attribute; Expires is the session's 30 days (sliding), never a session cookie.
      const days = (Date.parse(attrs.get("expires")!) - h.clock.now().getTime()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30.01);
      expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    } finally {
      await prod.close();
    }
  });

  it("refuses private files without a valid signature and serves them with one", async () => {
    await h.deps.storage.put("avatars", "u1/avatar.png", Buffer.from("x"), "image/png");
    expect((await fetch(`${server.url}/files/avatars/u1/avatar.png`)).status).toBe(403);
    const signed = await h.deps.storage.signedUrl("avatars", "u1/avatar.png");
    expect((await fetch(`${server.url}${signed}`)).status).toBe(200);
    expect((await fetch(`${server.url}${signed.replace(/signature=[^&]+/, "signature=abc")}`)).status).toBe(403);
    expect((await fetch(`${server.url}/files/avatars/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });
});
