import { schema } from "@elo/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { procedureNames } from "../../src/http/metrics-route";
import { appRouter } from "../../src/routers/_app";
import { pino } from "pino";
import { startScheduler } from "../../src/jobs/scheduler";
import { createMailer } from "../../src/mail/mailer";
import { marketWorld } from "../support/factories/benefits";
import { createUser } from "../support/factories/users";
import { startSmtpServer } from "../support/smtp";
import { createHarness, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";

const TOKEN = "metrics-token-for-the-tests-0123456789";

/** The sample lines of a Prometheus text answer (no comments), each as its series and value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

let h: Harness;
let server: TestServer;
beforeAll(async () => {
  h = await createHarness();
  server = await h.startServer({ METRICS_TOKEN: TOKEN, RATE_LIMIT: "1" });
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});

const scrape = async () => {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return samples(await res.text());
};
const get = (s: Map<string, number>, series: string) => s.get(series) ?? 0;

describe("/metrics", () => {
  it("is refused without the token, with a wrong one, and answers 404 when no token is configured", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
    const closed = await buildApp({ ...h.deps, config: { ...h.deps.config, METRICS_TOKEN: undefined } });
    const res = await closed.inject({ url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain("elo_");
    await closed.close();
  });

  it("counts each call of a batch under its procedure's name, never the URL's", async () => {
    const before = await scrape();
    const batch = await fetch(`${server.url}/trpc/reference.states,auth.me?batch=1&input=${encodeURIComponent("{}")}`);
    expect(batch.status).toBe(200);
    const after = await scrape();
    expect(get(after, 'elo_trpc_calls_total{procedure="reference.states",status_class="2xx"}') - get(before, 'elo_trpc_calls_total{procedure="reference.states",status_class="2xx"}')).toBe(1);
    expect(get(after, 'elo_trpc_calls_total{procedure="auth.me",status_class="2xx"}') - get(before, 'elo_trpc_calls_total{procedure="auth.me",status_class="2xx"}')).toBe(1);
    expect(get(after, 'elo_trpc_call_duration_seconds_count{procedure="auth.me"}')).toBeGreaterThan(0);
    expect([...after.keys()].some((k) => k.includes("reference.states,auth.me"))).toBe(false);
    expect(get(after, 'elo_http_responses_total{route="/trpc/:path",status_class="2xx"}')).toBeGreaterThan(0);
    // The process's own figures and the database's.
    for (const name of ["elo_process_resident_memory_bytes", "elo_nodejs_eventloop_lag_p99_seconds", "elo_database_up", "elo_outbox_oldest_pending_age_seconds"]) {
      expect(after.has(name), name).toBe(true);
    }
    expect(get(after, "elo_database_up")).toBe(1);
    // This process's pool (decision 186): its size, and nothing in use between requests.
    if (h.dbHandle.kind === "postgres") {
      expect(get(after, 'elo_database_pool_connections{state="max"}')).toBe(h.dbHandle.pool()!.max);
      expect(after.has('elo_database_pool_connections{state="waiting"}')).toBe(true);
    } else expect([...after.keys()].some((k) => k.startsWith("elo_database_pool_connections"))).toBe(false);
  });

  it("counts logins by outcome and rate-limit refusals by limit", async () => {
    const user = await createUser(h, { password: "Senha#Forte123" });
    const before = await scrape();
    const login = (password: string) =>
      fetch(`${server.url}/trpc/auth.login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: TEST_ORIGIN, "x-forwarded-for": "10.9.9.9" },
        body: JSON.stringify({ json: { email: user.email, password } }),
      });
    expect((await login("Senha#Forte123")).status).toBe(200);
    expect((await login("errada-errada-1")).status).toBe(401);
    const after = await scrape();
    expect(get(after, 'elo_logins_total{outcome="ok"}') - get(before, 'elo_logins_total{outcome="ok"}')).toBe(1);
    expect(get(after, 'elo_logins_total{outcome="refused"}') - get(before, 'elo_logins_total{outcome="refused"}')).toBe(1);
    // The per-IP login limit: 20 a minute; the 21st and later are refused and counted.
    for (let i = 0; i < 22; i++) await login("errada-errada-1");
    const limited = await scrape();
    expect(get(limited, 'elo_rate_limit_refusals_total{limit="login"}')).toBeGreaterThan(0);
    expect(get(limited, 'elo_logins_total{outcome="locked"}')).toBeGreaterThan(0);
  });

  it("counts claims committed and refused by reason, e-mails sent and failed, and job runs", async () => {
    const before = await scrape();
    const { parent, discount } = await marketWorld(h, { discount: { slots: 2 } });
    const api = await h.caller(parent.id);
    await api.claim.create({ discountId: discount.id });
    await expect(api.claim.create({ discountId: discount.id })).rejects.toMatchObject({ code: "CONFLICT" });

    // A mailer whose SMTP server accepts, then one whose server is gone.
    const smtp = await startSmtpServer();
    const logger = pino({ level: "silent" });
    const ok = createMailer({ db: h.db, smtpUrl: smtp.url, from: "t@teste.com.br", clock: h.clock, logger, env: h.config });
    await h.db.delete(schema.emailOutbox);
    await h.db.insert(schema.emailOutbox).values({ kind: "test", to: "ok@teste.com.br", subject: "s", html: "h", text: "t", nextAttemptAt: new Date(0) });
    expect(await ok.flush()).toBe(1);
    await ok.stop();
    await smtp.close();
    const gone = createMailer({ db: h.db, smtpUrl: "smtp://127.0.0.1:1", from: "t@teste.com.br", clock: h.clock, logger, env: h.config });
    await h.db.insert(schema.emailOutbox).values({ kind: "test", to: "falha@teste.com.br", subject: "s", html: "h", text: "t", nextAttemptAt: new Date(0) });
    expect(await gone.flush()).toBe(0);
    await gone.stop();

    let fail = true;
    const scheduler = startScheduler({ jobs: [{ name: "metrics-test-job", run: async () => (fail ? Promise.reject(new Error("x")) : 0) }], intervalMs: 0, logger });
    await scheduler.runNow();
    fail = false;
    await scheduler.runNow();
    await scheduler.stop();

    const after = await scrape();
    const delta = (series: string) => get(after, series) - get(before, series);
    expect(delta('elo_claims_total{outcome="committed",reason=""}')).toBe(1);
    expect(delta('elo_claims_total{outcome="refused",reason="duplicate"}')).toBe(1);
    expect(delta('elo_emails_total{outcome="sent"}')).toBe(1);
    expect(delta('elo_emails_total{outcome="failed"}')).toBe(1);
    expect(get(after, 'elo_job_runs_total{job="metrics-test-job",outcome="failed"}')).toBe(1);
    expect(get(after, 'elo_job_runs_total{job="metrics-test-job",outcome="ok"}')).toBe(1);
    expect(get(after, 'elo_job_last_success_timestamp_seconds{job="metrics-test-job"}')).toBeGreaterThan(Date.now() / 1000 - 60);
  });

  it("reads the outbox's depth and the age of its oldest pending e-mail when scraped", async () => {
    const now = h.clock.now().getTime();
    await h.db.insert(schema.emailOutbox).values([
      { kind: "test", to: "a@teste.com.br", subject: "s", html: "h", text: "t", createdAt: new Date(now - 600_000), nextAttemptAt: new Date(now + 3_600_000) },
      { kind: "test", to: "b@teste.com.br", subject: "s", html: "h", text: "t", status: "failed", lastError: "550 refused" },
    ]);
    const s = await scrape();
    expect(get(s, 'elo_outbox_emails{status="pending"}')).toBeGreaterThanOrEqual(1);
    expect(get(s, 'elo_outbox_emails{status="failed"}')).toBeGreaterThanOrEqual(1);
    expect(get(s, "elo_outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(600);
  });

  it("keeps the series bounded: 500 distinct URLs add no series per URL", async () => {
    // Every kind of path once, so that the classes they fall in exist before counting.
    const kinds = (i: number) => [`/trpc/nope${i}`, `/trpc/a.b${i},c.d${i}?batch=1`, `/trpc/reference.states?input=${i}`, `/files/x${i}`, `/pagina-${i}`, `/api/x${i}`];
    for (const url of kinds(0)) await fetch(`${server.url}${url}`);
    const before = (await scrape()).size;
    for (let i = 1; i <= 500; i++) {
      const urls = kinds(i);
      await fetch(`${server.url}${urls[i % urls.length]}`);
    }
    const after = await scrape();
    // A handful may appear (a status class seen for the first time), never one per URL.
    expect(after.size - before).toBeLessThan(20);
    const known = procedureNames(appRouter);
    for (const key of after.keys()) {
      const m = /procedure="([^"]*)"/.exec(key);
      if (m) expect(known.has(m[1]!) || m[1] === "unknown", key).toBe(true);
    }
    expect(get(after, 'elo_trpc_calls_total{procedure="unknown",status_class="4xx"}')).toBeGreaterThan(100);
  });
});
