import { schema, type Database } from "@elo/db";
import type { FastifyBaseLogger } from "fastify";
import { and, eq, isNull, sql } from "drizzle-orm";
import { queryRows } from "../db/raw";
import type { Clock } from "../lib/clock";
import type { Mailer } from "../mail/mailer";
import { enqueueTemplate, webhookPausedEmail } from "../mail/templates";
import type { EmailEnv } from "../mail/templates/layout";
import { postWebhook, type PostOptions, type PostResult } from "./post";
import { DELIVERY_LEASE_MS, RETRY_WINDOW_MS, retryDelayMs } from "./retry";
import { webhookHeaders } from "./signing";

const { webhookDeliveries: d, webhookEndpoints: e } = schema;

export interface WebhookSender {
  /** Delivers everything due now (several at a time); resolves with how many were answered 2xx. */
  flush(): Promise<number>;
  /** Polls for due deliveries every `intervalMs` in the background. */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

interface Claimed {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempts: number;
  first_attempt_at: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  type: string;
  payload: unknown;
  event_at: string;
}

/** Deliveries a process has in flight at most: its slots, refilled by one claim when half are free. */
export const WEBHOOK_IN_FLIGHT = 32;

/** The body of a delivery (Standard Webhooks' recommended shape): type, when it happened, and the data. */
export function webhookBody(type: string, eventAt: Date | string, payload: unknown): string {
  return JSON.stringify({ type, timestamp: new Date(eventAt).toISOString(), data: payload });
}

/**
 * The webhook sender every server process runs (docs/decisions/204, 217). A due delivery is taken
 * by one statement with FOR UPDATE SKIP LOCKED and leased (its `next_attempt_at` moved past the
 * exchange), so two processes never send one delivery at once and a process killed mid-send leaves
 * it to be retried after the lease. The HTTP exchange runs with no lock held.
 */
export function createWebhookSender(opts: {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  mailer: Mailer;
  env: EmailEnv;
  post?: Pick<PostOptions, "production" | "resolve" | "timeoutMs">;
  /** Deliveries in flight in this process at most (default WEBHOOK_IN_FLIGHT). */
  inFlight?: number;
  random?: () => number;
}): WebhookSender {
  const postOptions: PostOptions = opts.post ?? { production: false };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;

  /**
   * Takes up to `limit` due deliveries and leases them (their attempt counted, `next_attempt_at`
   * moved past the exchange) in ONE statement, which is its own transaction: the rows it locks
   * (FOR UPDATE SKIP LOCKED) stay locked until it has leased them, with no BEGIN/COMMIT round trips.
   */
  async function claimDue(limit: number): Promise<Claimed[]> {
    const now = opts.clock.now();
    return queryRows<Claimed>(
      opts.db,
      sql`
        with due as (
          select d.id from webhook_deliveries d
          join webhook_endpoints e on e.id = d.endpoint_id
          where d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz and e.status = 'active'
          order by d.next_attempt_at
          limit ${limit}
          for update of d skip locked
        ),
        leased as (
          update webhook_deliveries d
          set attempts = d.attempts + 1, next_attempt_at = ${new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString()}::timestamptz,
            first_attempt_at = coalesce(d.first_attempt_at, ${now.toISOString()}::timestamptz)
          from due where d.id = due.id
          returning d.id, d.event_id, d.endpoint_id, d.attempts, d.first_attempt_at
        )
        select l.id, l.event_id, l.endpoint_id, l.attempts, l.first_attempt_at, e.url, e.secret, e.previous_secret, e.previous_secret_until,
          ev.type, ev.payload, ev.created_at as event_at
        from leased l join webhook_endpoints e on e.id = l.endpoint_id join webhook_events ev on ev.id = l.event_id`,
    );
  }

  async function send(row: Claimed): Promise<PostResult> {
    const now = opts.clock.now();
    const secrets = [row.secret];
    if (row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until) > now) secrets.push(row.previous_secret);
    const body = webhookBody(row.type, row.event_at, row.payload);
    return postWebhook(row.url, webhookHeaders(secrets, row.event_id, Math.floor(now.getTime() / 1000), body), body, postOptions);
  }

  const isOk = (r: PostResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
  const clean = (text: string) => text.replace(/\u0000/g, "");

  /** The successes of a batch in ONE statement (atomic): their attempts, the deliveries done, their endpoints' failure runs ended. */
  async function recordDelivered(done: Array<{ row: Claimed; result: PostResult }>) {
    if (done.length === 0) return;
    const at = opts.clock.now().toISOString();
    const col = <T,>(f: (x: { row: Claimed; result: PostResult }) => T) => JSON.stringify(done.map(f));
    await queryRows(
      opts.db,
      sql`with rows as (
          select (ids.v)::uuid as delivery_id, (eps.v)::uuid as endpoint_id, (codes.v)::int as status_code, (lat.v)::int as latency_ms, resp.v as response
          from jsonb_array_elements_text(${col((x) => x.row.id)}::jsonb) with ordinality ids(v, n)
          join jsonb_array_elements_text(${col((x) => x.row.endpoint_id)}::jsonb) with ordinality eps(v, n) using (n)
          join jsonb_array_elements_text(${col((x) => x.result.statusCode)}::jsonb) with ordinality codes(v, n) using (n)
          join jsonb_array_elements_text(${col((x) => x.result.latencyMs)}::jsonb) with ordinality lat(v, n) using (n)
          join jsonb_array_elements_text(${col((x) => clean(x.result.response))}::jsonb) with ordinality resp(v, n) using (n)),
        a as (insert into webhook_attempts (delivery_id, endpoint_id, at, status_code, latency_ms, response)
          select delivery_id, endpoint_id, ${at}::timestamptz, status_code, latency_ms, response from rows),
        d as (update webhook_deliveries w set status = 'delivered', delivered_at = ${at}::timestamptz from rows where w.id = rows.delivery_id)
      update webhook_endpoints e set failing_since = null where e.id in (select endpoint_id from rows) and e.failing_since is not null`,
    );
  }

  /** A failed try: logged, retried later (or given up after 3 days), and the endpoint paused when failing for 3 days. */
  async function recordFailed(row: Claimed, result: PostResult) {
    const now = opts.clock.now();
    await opts.db.transaction(async (tx) => {
      await queryRows(
        tx,
        sql`insert into webhook_attempts (delivery_id, endpoint_id, at, status_code, latency_ms, response, error)
          values (${row.id}, ${row.endpoint_id}, ${now.toISOString()}::timestamptz, ${result.statusCode}, ${result.latencyMs}, ${clean(result.response)}, ${result.error})`,
      );
      const givenUp = now.getTime() - new Date(row.first_attempt_at).getTime() >= RETRY_WINDOW_MS;
      await tx
        .update(d)
        .set(givenUp ? { status: "failed" } : { nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts, opts.random)) })
        .where(eq(d.id, row.id));
      await tx.update(e).set({ failingSince: now }).where(and(eq(e.id, row.endpoint_id), isNull(e.failingSince)));
      await pauseIfFailingTooLong(tx, row.endpoint_id, now, result);
    });
  }

  /** An endpoint failing for 3 days is paused, once (a conditional UPDATE), and its school's staff e-mailed. */
  async function pauseIfFailingTooLong(tx: Database, endpointId: string, now: Date, result: PostResult) {
    const since = new Date(now.getTime() - RETRY_WINDOW_MS);
    const [paused] = await tx
      .update(e)
      .set({ status: "paused", pausedReason: "failing", updatedAt: now })
      .where(and(eq(e.id, endpointId), eq(e.status, "active"), sql`${e.failingSince} <= ${since.toISOString()}::timestamptz`))
      .returning({ schoolId: e.schoolId, url: e.url, failingSince: e.failingSince });
    if (!paused) return;
    const staff = await queryRows<{ user_id: string; email: string; school_name: string }>(
      tx,
      sql`select u.id as user_id, u.email, s.name as school_name from school_memberships m
          join users u on u.id = m.user_id join schools s on s.id = m.school_id
          where m.school_id = ${paused.schoolId} and m.status = 'approved'`,
    );
    const lastError = result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? "sem resposta");
    for (const s of staff) {
      await enqueueTemplate({ mailer: opts.mailer, config: opts.env }, tx, webhookPausedEmail, s.email, { userId: s.user_id }, {
        schoolName: s.school_name,
        url: paused.url,
        failingSince: (paused.failingSince ?? now).toISOString(),
        lastError: lastError.slice(0, 200),
      });
    }
    opts.logger.warn({ endpointId, schoolId: paused.schoolId }, "webhook endpoint paused after 3 days of failures");
  }

  /** A batch's outcome written down: its successes in one statement, each failure on its own. */
  async function record(sent: Array<{ row: Claimed; result: PostResult }>): Promise<number> {
    const done = sent.filter((x) => isOk(x.result));
    await recordDelivered(done);
    for (const x of sent) if (!isOk(x.result)) await recordFailed(x.row, x.result);
    return done.length;
  }

  /**
   * One delivery round (decision 217): up to `inFlight` deliveries are in flight; whenever half the
   * slots are free (or none is busy) the answers that came back are written in one statement while
   * as many due deliveries as there are free slots are claimed in one statement, and sent. A slow
   * endpoint holds one slot, not a batch. At most one write is pending; the round ends when nothing
   * more is due and nothing is in flight, after its last write (on `stop`, after the sends already
   * started).
   */
  async function deliverDue(): Promise<number> {
    const slots = opts.inFlight ?? WEBHOOK_IN_FLIGHT;
    const inFlight = new Set<Promise<void>>();
    let answered: Array<{ row: Claimed; result: PostResult }> = [];
    let writing: Promise<number> = Promise.resolve(0);
    let delivered = 0;
    let drained = false;
    const start = (row: Claimed) => {
      const sending: Promise<void> = send(row)
        .catch((err: unknown): PostResult => ({ statusCode: null, latencyMs: 0, response: "", error: String(err).slice(0, 300) }))
        .then((result) => {
          answered.push({ row, result });
          inFlight.delete(sending);
        });
      inFlight.add(sending);
    };
    try {
      for (;;) {
        const free = slots - inFlight.size;
        if (free >= slots / 2 || inFlight.size === 0) {
          delivered += await writing;
          writing = answered.length ? record(answered) : Promise.resolve(0);
          answered = [];
          // Awaited on the next turn; handled now, so a failed write is not an unhandled rejection meanwhile.
          writing.catch(() => {});
          if (!drained && !stopped) {
            const rows = await claimDue(free);
            if (rows.length < free) drained = true;
            rows.forEach(start);
          }
        }
        if (inFlight.size === 0) break;
        await Promise.race(inFlight);
      }
    } finally {
      await Promise.all(inFlight);
      delivered += await writing;
      if (answered.length) delivered += await record(answered);
    }
    return delivered;
  }

  function flush() {
    running ??= deliverDue().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    flush,
    start(intervalMs = 500) {
      if (timer) return;
      stopped = false;
      const tick = () => void flush().catch((err) => opts.logger.warn({ err }, "webhook delivery round failed"));
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },
  };
}
