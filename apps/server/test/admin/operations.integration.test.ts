import { schema } from "@elo/db";
import { operationsMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordJobRun } from "../../src/jobs/job-runs";
import { noteRateLimitRefusal } from "../../src/lib/metrics";
import { startScheduler } from "../../src/jobs/scheduler";
import { maskAddress } from "../../src/routers/admin/operations.handler";
import { createAdmin, createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

/** 'Operação' against hand-made fixtures: every figure is known in advance. */
let h: Harness;
let adminId: string;
let parentId: string;
const minutes = (n: number) => n * 60_000;

beforeAll(async () => {
  h = await createHarness();
  adminId = (await createAdmin(h)).id;
  parentId = (await createUser(h)).id;
});
afterAll(() => h.close());

const at = (msAgo: number) => new Date(h.clock.now().getTime() - msAgo);
const mail = (to: string, extra: Partial<typeof schema.emailOutbox.$inferInsert>) => ({ kind: "voucher", to, subject: "s", html: "h", text: "t", ...extra });

describe("admin.operations.overview", () => {
  it("counts the outbox, lists failing e-mails with their error, and charts the last 24 hours", async () => {
    await h.db.insert(schema.emailOutbox).values([
      mail("fila@teste.com.br", { createdAt: at(minutes(30)), nextAttemptAt: at(0) }),
      mail("recusado@teste.com.br", { createdAt: at(minutes(90)), attempts: 3, lastError: "550 5.1.1 mailbox unavailable", nextAttemptAt: at(-minutes(10)) }),
      mail("desistido@teste.com.br", { createdAt: at(minutes(120)), status: "failed", lastError: "template unknown" }),
      mail("enviado@teste.com.br", { createdAt: at(minutes(60)), status: "sent", sentAt: at(minutes(59)) }),
      mail("antigo@teste.com.br", { createdAt: at(minutes(60 * 48)), status: "sent", sentAt: at(minutes(60 * 48)) }),
    ]);
    const o = await (await h.caller(adminId)).admin.operations.overview();
    expect(o.outbox).toMatchObject({ pending: 2, failing: 2, sentLastDay: 1 });
    expect(o.outbox.oldestPendingSeconds).toBe(90 * 60);
    expect(o.outbox.failed[0]!.subject).toBe("s");
    expect(o.outbox.failed.map((f) => [f.to, f.lastError])).toEqual([
      ["r***@teste.com.br", "550 5.1.1 mailbox unavailable"],
      ["d***@teste.com.br", "template unknown"],
    ]);
    expect(o.outbox.hours).toHaveLength(24);
    expect(o.outbox.hours.reduce((n, x) => n + x.queued, 0)).toBe(4);
    expect(o.outbox.hours.reduce((n, x) => n + x.sent, 0)).toBe(1);
    expect(o.smtpEnabled).toBe(false);
  });

  it("shows each job's last run, success and error, never-run jobs, and the last verified backup", async () => {
    await recordJobRun(h.db, at(minutes(10)), "expire-vouchers", { ok: true, done: 3 });
    await recordJobRun(h.db, at(minutes(5)), "expire-vouchers", { ok: false, error: new Error("connection reset") });
    await recordJobRun(h.db, at(minutes(60)), "backup", { ok: true, done: 42 });
    const o = await (await h.caller(adminId)).admin.operations.overview();
    const expire = o.jobs.find((j) => j.job === "expire-vouchers")!;
    expect(expire).toMatchObject({ label: operationsMessages.jobNames["expire-vouchers"], runs: 2, failures: 1, lastError: "connection reset" });
    expect(expire.lastRunAt).toEqual(at(minutes(5)));
    expect(expire.lastSuccessAt).toEqual(at(minutes(10)));
    expect(o.jobs.find((j) => j.job === "lapse-waitlist-offers")).toMatchObject({ lastRunAt: null, runs: 0 });
    expect(o.backup).toMatchObject({ files: 42, lastError: null });
    expect(o.backup!.lastSuccessAt).toEqual(at(minutes(60)));
  });

  it("counts locked logins now and refused logins in the last hour", async () => {
    await h.db.insert(schema.loginThrottles).values([
      { email: "bloqueado@teste.com.br", failedCount: 5, blockedUntil: at(-minutes(10)) },
      { email: "liberado@teste.com.br", failedCount: 5, blockedUntil: at(minutes(1)) },
    ]);
    await h.db.insert(schema.loginAttempts).values([
      { email: "x@teste.com.br", success: false, createdAt: at(minutes(5)) },
      { email: "x@teste.com.br", success: false, createdAt: at(minutes(50)) },
      { email: "x@teste.com.br", success: false, createdAt: at(minutes(70)) },
      { email: "x@teste.com.br", success: true, createdAt: at(minutes(5)) },
    ]);
    const o = await (await h.caller(adminId)).admin.operations.overview();
    expect(o.now).toMatchObject({ lockedLogins: 1, refusedLoginsLastHour: 2 });
    expect(o.now.rateLimitRefusalsLastHour).toBeGreaterThanOrEqual(0);
  });

  it("sums every replica's rate-limit refusals and job runs (shared table), this process's unflushed ones included", async () => {
    const minuteAgo = (n: number) => new Date(Math.floor(at(minutes(n)).getTime() / 60_000) * 60_000);
    // Another replica's flushed counts: 3 + 2 in the last hour, 5 older.
    await h.db.insert(schema.opsCounts).values([
      { minute: minuteAgo(10), name: "rate_limit_refusal", label: "login", n: 3 },
      { minute: minuteAgo(30), name: "rate_limit_refusal", label: "ip", n: 2 },
      { minute: minuteAgo(70), name: "rate_limit_refusal", label: "ip", n: 5 },
    ]);
    // This process refuses twice; not flushed yet.
    noteRateLimitRefusal("ip", h.clock.now().getTime());
    noteRateLimitRefusal("ip", h.clock.now().getTime());
    await recordJobRun(h.db, h.clock.now(), "expire-vouchers", { ok: false, error: new Error("x") });
    const o = await (await h.caller(adminId)).admin.operations.overview();
    expect(o.now.rateLimitRefusalsLastHour).toBe(7);
    const last = o.activity.hours.at(-1)!;
    expect(last.jobRuns).toBeGreaterThanOrEqual(1);
    expect(last.jobFailures).toBeGreaterThanOrEqual(1);
    expect(o.activity.hours.reduce((a, x) => a + x.refusals, 0)).toBe(12);
    expect(o.activity.hours).toHaveLength(24);
    // Flushed once: a second look counts the same.
    expect((await (await h.caller(adminId)).admin.operations.overview()).now.rateLimitRefusalsLastHour).toBe(7);
  });

  it("is refused to a parent and to a visitor", async () => {
    await expect((await h.caller(parentId)).admin.operations.overview()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await h.caller(null)).admin.operations.overview()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("admin.operations.resendEmail", () => {
  it("queues a failing e-mail once under a double click", async () => {
    const [row] = await h.db
      .insert(schema.emailOutbox)
      .values(mail("duplo@teste.com.br", { attempts: 4, lastError: "421 try later", nextAttemptAt: at(-minutes(60)) }))
      .returning({ id: schema.emailOutbox.id });
    const admin = await h.caller(adminId);
    const answers = await Promise.all([admin.admin.operations.resendEmail({ id: row!.id }), admin.admin.operations.resendEmail({ id: row!.id })]);
    expect(answers.map((a) => a.queued).sort()).toEqual([false, true]);
    expect(answers.find((a) => !a.queued)!.message).toBe(operationsMessages.resendAlready);
    const [after] = await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.id, row!.id));
    expect(after).toMatchObject({ status: "pending", lastError: null, attempts: 0 });
    expect(after!.nextAttemptAt.getTime()).toBeLessThanOrEqual(h.clock.now().getTime());
    // A third click, later: still nothing more to do.
    expect((await admin.admin.operations.resendEmail({ id: row!.id })).queued).toBe(false);
  });

  it("answers not found for an unknown e-mail, and refuses a parent", async () => {
    const admin = await h.caller(adminId);
    await expect(admin.admin.operations.resendEmail({ id: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const [row] = await h.db.insert(schema.emailOutbox).values(mail("alheio@teste.com.br", { lastError: "550" })).returning({ id: schema.emailOutbox.id });
    await expect((await h.caller(parentId)).admin.operations.resendEmail({ id: row!.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const [still] = await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.id, row!.id));
    expect(still!.lastError).toBe("550");
  });
});

describe("job runs kept by the scheduler", () => {
  it("records a failing run and a succeeding one of the same job", async () => {
    let fail = true;
    const scheduler = startScheduler({
      jobs: [{ name: "test-job", run: async () => (fail ? Promise.reject(new Error("boom")) : 7) }],
      intervalMs: 0,
      logger: pino({ level: "silent" }),
      record: (job, outcome) => recordJobRun(h.db, h.clock.now(), job, outcome),
    });
    await scheduler.runNow();
    fail = false;
    await scheduler.runNow();
    await scheduler.stop();
    const [row] = await h.db.select().from(schema.jobRuns).where(eq(schema.jobRuns.job, "test-job"));
    expect(row).toMatchObject({ runs: 2, failures: 1, lastError: "boom", lastDone: 7 });
    expect(row!.lastSuccessAt).not.toBeNull();
  });
});

it("masks addresses to their first letter and domain", () => {
  expect(maskAddress("maria.silva@gmail.com")).toBe("m***@gmail.com");
  expect(maskAddress("sem-arroba")).toBe("***");
});
