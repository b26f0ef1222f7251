import { schema } from "@elo/db";
import { emailConfirmationMessages, LIMITS } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/http/rate-limit";
import { signupInputFor, latestConfirmationToken } from "../support/factories/auth";
import { marketWorld } from "../support/factories/benefits";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { TEST_ORIGIN, withServer, type Harness, type TestServer } from "../support/harness";

/**
 * Issue 21, part 1, through a listening server: signup sends a single-use link (24 h); until it is
 * opened, claims and API tokens are refused; 'Reenviar e-mail' is limited per address and per IP.
 */
let h: Harness;
let server: TestServer;
// TRUST_PROXY: each case picks its client address (X-Forwarded-For), so the per-IP counters are its own.
withServer((s) => ({ h, server } = s), { env: { RATE_LIMIT: "1", TRUST_PROXY: "127.0.0.1" }, poolMax: 25 });

let lastIp = 0;
const freshIp = () => {
  const n = ++lastIp;
  return `198.51.${n >> 8}.${n & 255}`;
};

interface Answer {
  status: number;
  body: any;
  cookie: string | null;
}

async function call(path: string, opts: { input?: unknown; cookie?: string | null; ip?: string; query?: boolean; target?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { origin: TEST_ORIGIN, "x-forwarded-for": opts.ip ?? freshIp() };
  if (opts.cookie) headers.cookie = opts.cookie;
  const target = opts.target ?? `/trpc/${path}`;
  const res = opts.query
    ? await fetch(`${server.url}${target}${opts.input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: opts.input }))}`}`, { headers })
    : await fetch(`${server.url}${target}`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(opts.input === undefined ? {} : { json: opts.input }) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, cookie: res.headers.get("set-cookie")?.split(";")[0] ?? null };
}

/** Signs up through /trpc/auth.signup and returns the account's e-mail, id and session cookie. */
async function signUp() {
  const input = await signupInputFor(h);
  const res = await call("auth.signup", { input });
  expect(res.status).toBe(200);
  const [user] = await h.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, input.email));
  return { email: input.email, id: user!.id, cookie: res.cookie! };
}

const me = async (cookie: string) => (await call("auth.me", { cookie, query: true })).body.result.data.json as { emailConfirmed: boolean };
const confirmationMails = (email: string) =>
  h.db.select().from(schema.emailOutbox).where(and(eq(schema.emailOutbox.to, email), eq(schema.emailOutbox.kind, "email-confirmation")));

describe("e-mail confirmation over HTTP", () => {
  it("signup queues one link; until it is opened claims and API tokens are refused, with the reason", async () => {
    const account = await signUp();
    const mails = await confirmationMails(account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(new RegExp(`Confirmar e-mail: ${h.config.publicOrigin}/confirmar-email\\?token=[a-z0-9]{40}$`, "m"));
    // Only the hash is stored.
    const token = (await latestConfirmationToken(h, account.email))!;
    const [row] = await h.db.select().from(schema.emailConfirmationTokens).where(eq(schema.emailConfirmationTokens.userId, account.id));
    expect(row!.id).not.toBe(token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(LIMITS.emailConfirmationHours * 3_600_000);

    expect(await me(account.cookie)).toMatchObject({ emailConfirmed: false });
    const { discount } = await marketWorld(h);
    const claim = await call("claim.create", { cookie: account.cookie, input: { discountId: discount.id } });
    expect(claim.status).toBe(412);
    expect(claim.body.error.json.data).toMatchObject({ code: "PRECONDITION_FAILED", meta: { reason: "email_unconfirmed" }, toast: { title: emailConfirmationMessages.requiredTitle } });
    const token2 = await call("apiTokens.create", { cookie: account.cookie, input: { name: "Script" } });
    expect(token2.status).toBe(412);
    expect(await h.db.select().from(schema.apiTokens).where(eq(schema.apiTokens.userId, account.id))).toEqual([]);

    // Opened in another account's browser: the link confirms its own address, not the viewer's.
    const other = await signUp();
    const opened = await call("auth.confirmEmail", { cookie: other.cookie, input: { token } });
    expect(opened.status).toBe(200);
    expect(opened.body.result.data.json).toEqual({ ok: true, viewerConfirmed: false });
    expect(await me(other.cookie)).toMatchObject({ emailConfirmed: false });
    expect(await me(account.cookie)).toMatchObject({ emailConfirmed: true });
    const own = await call("auth.confirmEmail", { cookie: other.cookie, input: { token: (await latestConfirmationToken(h, other.email))! } });
    expect(own.body.result.data.json).toEqual({ ok: true, viewerConfirmed: true });
    expect((await call("apiTokens.create", { cookie: account.cookie, input: { name: "Script" } })).status).toBe(200);
  });

  it("a link is spent once under a parallel burst of 30 redemptions: one 200, 29 'Link inválido ou expirado'", async () => {
    const account = await signUp();
    const token = (await latestConfirmationToken(h, account.email))!;
    const answers = await Promise.all(Array.from({ length: 30 }, () => call("auth.confirmEmail", { input: { token } })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(29);
    for (const a of answers.filter((x) => x.status === 400)) {
      expect(a.body.error.json.data).toMatchObject({ meta: { invalidLink: true }, toast: { title: emailConfirmationMessages.invalidLinkTitle } });
    }
    const tokens = await h.db.select().from(schema.emailConfirmationTokens).where(eq(schema.emailConfirmationTokens.userId, account.id));
    expect(tokens.filter((t) => t.usedAt !== null)).toHaveLength(1);
    expect(await me(account.cookie)).toMatchObject({ emailConfirmed: true });
  });

  it("a link expires after 24 h; a resent link works; a confirmed address gets no more links", async () => {
    const account = await signUp();
    const token = (await latestConfirmationToken(h, account.email))!;
    h.clock.advance(LIMITS.emailConfirmationHours * 3_600_000 + 1000);
    try {
      expect((await call("auth.confirmEmail", { input: { token } })).status).toBe(400);
      expect(await me(account.cookie)).toMatchObject({ emailConfirmed: false });
      const resent = await call("auth.resendConfirmation", { cookie: account.cookie });
      expect(resent.body.result.data.json).toEqual({ sent: true, alreadyConfirmed: false });
      const fresh = (await latestConfirmationToken(h, account.email))!;
      expect(fresh).not.toBe(token);
      expect((await call("auth.confirmEmail", { input: { token: fresh } })).status).toBe(200);
      const again = await call("auth.resendConfirmation", { cookie: account.cookie });
      expect(again.body.result.data.json).toEqual({ sent: false, alreadyConfirmed: true });
      expect(await confirmationMails(account.email)).toHaveLength(2);
    } finally {
      h.clock.advance(-(LIMITS.emailConfirmationHours * 3_600_000 + 1000));
    }
  });

  it("resends are counted per address, whatever the IP: the quota (signup included), then a Portuguese 429", async () => {
    const account = await signUp();
    const { max } = RATE_LIMITS.recovery;
    const statuses: number[] = [];
    // Every call from a new address: only the per-address count can stop them.
    for (let i = 0; i < max; i++) statuses.push((await call("auth.resendConfirmation", { cookie: account.cookie })).status);
    expect(statuses.slice(0, max - 1).every((s) => s === 200)).toBe(true);
    expect(statuses[max - 1]).toBe(429);
    const refused = await call("auth.resendConfirmation", { cookie: account.cookie });
    expect(refused.status).toBe(429);
    expect(refused.body.error.json.data.toast.title).toBe(emailConfirmationMessages.tooManyTitle);
    expect(refused.body.error.json.data.toast.description).toMatch(/Tente novamente em \d+ minuto/);
    expect(await confirmationMails(account.email)).toHaveLength(max);
  });

  it("parallel resends of one address never pass the per-address quota", async () => {
    const account = await signUp();
    const { max } = RATE_LIMITS.recovery;
    const answers = await Promise.all(Array.from({ length: max * 2 }, () => call("auth.resendConfirmation", { cookie: account.cookie })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(max - 1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(max + 1);
    expect(await confirmationMails(account.email)).toHaveLength(max);
  });

  it("resends are counted per IP across accounts, through the URL variants of the hostile suite", async () => {
    const { max } = RATE_LIMITS.recovery;
    const variants = [
      { name: "plain", target: "/trpc/auth.resendConfirmation", calls: 1 },
      { name: "percent-encoded dots", target: "/trpc/auth%2EresendConfirmation", calls: 1 },
      { name: "batch", target: "/trpc/auth.resendConfirmation,auth.resendConfirmation?batch=1", calls: 2 },
      { name: "batch, percent-encoded comma", target: "/trpc/auth.resendConfirmation%2Cauth.resendConfirmation?batch=1", calls: 2 },
      { name: "query", target: "/trpc/auth.resendConfirmation?x=1", calls: 1 },
    ];
    for (const variant of variants) {
      const ip = freshIp();
      let served = 0;
      let limited = false;
      for (let i = 0; i <= max && !limited; i++) {
        // A new, unconfirmed account each time: the per-address quota never stops these.
        const user = await createUser(h, { emailConfirmed: false });
        const cookie = await sessionCookie(h, user.id);
        const body = variant.calls === 2 ? { 0: {}, 1: {} } : {};
        const res = await fetch(`${server.url}${variant.target}`, { method: "POST", headers: { origin: TEST_ORIGIN, "content-type": "application/json", "x-forwarded-for": ip, cookie }, body: JSON.stringify(body) });
        await res.arrayBuffer();
        if (res.status === 429) limited = true;
        else if (res.status === 200) served += variant.calls;
        else throw new Error(`${variant.name}: answered ${res.status}`);
      }
      expect(limited, variant.name).toBe(true);
      expect(served, variant.name).toBeLessThanOrEqual(max);
      // The plain path from the same IP is now limited too: same key.
      const cookie = await sessionCookie(h, (await createUser(h, { emailConfirmed: false })).id);
      expect((await call("auth.resendConfirmation", { cookie, ip })).status, variant.name).toBe(429);
    }
  });

  it("anonymous callers cannot ask for a link; unknown and malformed tokens are refused without confirming anyone", async () => {
    expect((await call("auth.resendConfirmation")).status).toBe(401);
    for (const token of ["x", "a".repeat(40), "a".repeat(201)]) {
      expect((await call("auth.confirmEmail", { input: { token } })).status).toBe(400);
    }
  });
});
