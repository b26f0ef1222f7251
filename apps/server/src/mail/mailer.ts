import { schema, type Database } from "@elo/db";
import type { FastifyBaseLogger } from "fastify";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Clock } from "../lib/clock";
import { emails } from "../lib/metrics";
import { countOp } from "../lib/ops-counts";
import type { EmailEnv, RenderedEmail } from "./templates/layout";
import { inlineImagesOf, renderStored } from "./templates/registry";
import { jsonbSafe } from "../lib/jsonb-safe";

export interface MailMessage extends RenderedEmail {
  /** What the message is (password-reset, voucher...): the template's kind. */
  kind: string;
  to: string;
  /** The recipient's account; null for mail to the platform's ADMIN_EMAIL. */
  userId: string | null;
  /** For admin-bound mail: the account it is about (deleted and exported with it). */
  aboutUserId?: string | null;
  /** The template's data, kept so the row can be rendered again. */
  data: unknown;
}

export interface Mailer {
  /**
   * Stores the message in the outbox (inside the caller's transaction when given one); with SMTP,
   * delivery starts by itself once that transaction commits.
   */
  enqueue(db: Database, message: MailMessage): Promise<string>;
  /**
   * Fills in the bodies of a row that SQL queued without them (the claim statement) and starts its
   * delivery. A row left unrendered (the process died first) is rendered by the sender from its data.
   */
  rendered(id: string, body: RenderedEmail): Promise<void>;
  /** Sends what is due; returns how many were sent. */
  flush(): Promise<number>;
  /** Starts the background sender (no-op without SMTP). */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
  readonly smtpEnabled: boolean;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
export const backoffMs = (attempts: number) => Math.min(2 ** attempts * 15_000, MAX_BACKOFF_MS);

/**
 * After this many failed attempts an e-mail is given up (`failed`, decision 187): with the backoff
 * above that is about three hours of an SMTP server refusing or away. It then shows on 'Operação'
 * with 'Reenviar', which queues it with a fresh count.
 */
export const MAX_SEND_ATTEMPTS = 10;

/** How long a claimed row is left alone while its SMTP exchange runs (a crash mid-send retries after it). */
export const SEND_LEASE_MS = 5 * 60 * 1000;

/**
 * nodemailer's own timeouts (10 min of silence by default) cut below the lease, so a stalled SMTP
 * exchange fails and is retried by its own process instead of being taken and sent by another.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as const;


/** Waits between looks for a just-enqueued row: it becomes visible when the caller's transaction commits. */
const COMMIT_WAITS_MS = [0, 20, 50, 100, 200, 400, 800, 1600, 3200, 6400];

type ClaimedRow = typeof schema.emailOutbox.$inferSelect & RenderedEmail;

/** Outbox-backed mailer: SMTP through nodemailer when `smtpUrl` is set, otherwise the outbox and the log. */
export function createMailer(opts: {
  db: Database;
  smtpUrl?: string;
  from: string;
  clock: Clock;
  logger: FastifyBaseLogger;
  env: EmailEnv;
  /**
   * Without SMTP, whether the log line carries the e-mail's text: yes in development (the demo's
   * links to follow), never in production, where the text's links (password reset, e-mail
   * confirmation, waitlist offer) would let anyone who reads the logs act as the recipient.
   */
  logText?: boolean;
}): Mailer {
  const transport: Transporter | null = opts.smtpUrl ? nodemailer.createTransport({ url: opts.smtpUrl, ...SMTP_TIMEOUTS }) : null;
  const { emailOutbox } = schema;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;
  const sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const entry = { timer: setTimeout(() => (sleeps.delete(entry), resolve()), ms), resolve };
      entry.timer.unref();
      sleeps.add(entry);
    });
  }

  /**
   * Takes the oldest due row in a short transaction: the attempt is counted and the row leased, so
   * the SMTP exchange runs with no lock held (PGlite has one connection; a lock there stops the app).
   */
  async function claimNext(): Promise<ClaimedRow | "unrenderable" | null> {
    return opts.db.transaction(async (tx) => {
      const now = opts.clock.now();
      const [row] = await tx
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)))
        .orderBy(emailOutbox.createdAt)
        .limit(1)
        .for("update", { skipLocked: true });
      if (!row) return null;
      // A row queued by SQL whose process died before rendering it: render it now, from its data.
      let body: RenderedEmail;
      try {
        body = row.subject !== null && row.html !== null && row.text !== null ? { subject: row.subject, html: row.html, text: row.text } : renderStored(row.kind, row.data, opts.env);
      } catch (error) {
        await tx.update(emailOutbox).set({ status: "failed", lastError: String((error as Error).message ?? error).slice(0, 500) }).where(eq(emailOutbox.id, row.id));
        opts.logger.error({ outboxId: row.id, kind: row.kind }, "e-mail could not be rendered from its data");
        return "unrenderable";
      }
      const claimed = { ...row, ...body, attempts: row.attempts + 1, nextAttemptAt: new Date(now.getTime() + SEND_LEASE_MS) };
      await tx.update(emailOutbox).set({ ...body, attempts: claimed.attempts, nextAttemptAt: claimed.nextAttemptAt }).where(eq(emailOutbox.id, row.id));
      return claimed;
    });
  }

  async function sendDue(): Promise<number> {
    if (!transport) return 0;
    let sent = 0;
    while (!stopped) {
      const row = await claimNext();
      if (!row) break;
      if (row === "unrenderable") continue;
      try {
        // Inline images (the voucher's QR code) are made from the row's data now, not kept in the outbox.
        const images = await inlineImagesOf(row.kind, row.data, opts.env);
        const attachments = images.map((i) => ({ cid: i.cid, filename: i.filename, contentType: i.contentType, content: i.content, contentDisposition: "inline" as const }));
        await transport.sendMail({ from: opts.from, to: row.to, subject: row.subject, html: row.html, text: row.text, attachments });
      } catch (error) {
        const giveUp = row.attempts >= MAX_SEND_ATTEMPTS;
        await opts.db
          .update(emailOutbox)
          .set({
            lastError: String((error as Error).message ?? error).slice(0, 500),
            ...(giveUp ? { status: "failed" as const } : { nextAttemptAt: new Date(opts.clock.now().getTime() + backoffMs(row.attempts)) }),
          })
          .where(eq(emailOutbox.id, row.id));
        emails.inc({ outcome: "failed" });
        countOp("outbox_failure", giveUp ? "email:given_up" : "email:retry", opts.clock.now().getTime());
        if (giveUp) opts.logger.error({ outboxId: row.id, attempts: row.attempts }, "e-mail delivery given up after the last attempt; 'Reenviar' on Operação queues it again");
        else opts.logger.warn({ outboxId: row.id, attempts: row.attempts }, "e-mail delivery failed; will retry");
        // The server is likely down for the rest too: leave them to the next round.
        break;
      }
      await opts.db.update(emailOutbox).set({ status: "sent", sentAt: opts.clock.now(), lastError: null }).where(eq(emailOutbox.id, row.id));
      emails.inc({ outcome: "sent" });
      sent++;
    }
    return sent;
  }

  function flush() {
    running ??= sendDue().finally(() => {
      running = null;
    });
    return running;
  }

  /**
   * Delivers a just-enqueued message once its row is committed. Enqueueing usually happens inside
   * the caller's transaction, where the row is invisible to the mailer's own connection; so look
   * for it a few times, briefly, and send when it shows up (a rolled-back row never does).
   */
  async function deliverWhenCommitted(id: string) {
    for (const wait of COMMIT_WAITS_MS) {
      if (wait) await sleep(wait);
      if (stopped) return;
      const [row] = await opts.db.select({ status: emailOutbox.status, nextAttemptAt: emailOutbox.nextAttemptAt }).from(emailOutbox).where(eq(emailOutbox.id, id));
      if (!row) continue;
      if (row.status !== "pending" || row.nextAttemptAt > opts.clock.now()) return;
      // A flush already under way may have looked before the commit: loop to check the row again.
      await flush();
    }
  }

  /** Logs the message without SMTP; with SMTP, sends it once its row is committed. */
  function queued(id: string, message: Pick<MailMessage, "kind" | "to" | "subject" | "text">) {
    if (!transport) opts.logger.info({ kind: message.kind, to: message.to, subject: message.subject, ...(opts.logText ? { text: message.text } : {}) }, "e-mail kept in the outbox (no SMTP_URL)");
    else if (!stopped) void deliverWhenCommitted(id).catch((e) => opts.logger.warn({ err: e }, "e-mail delivery after commit failed"));
  }

  const flushLogged = () => void flush().catch((e) => opts.logger.warn({ err: e }, "outbox flush failed"));

  return {
    smtpEnabled: transport !== null,
    async enqueue(db, message) {
      const [row] = await db
        .insert(emailOutbox)
        .values({ ...message, aboutUserId: message.aboutUserId ?? null, data: jsonbSafe(message.data), nextAttemptAt: opts.clock.now() })
        .returning({ id: emailOutbox.id });
      queued(row!.id, message);
      return row!.id;
    },
    async rendered(id, body) {
      const [row] = await opts.db
        .update(emailOutbox)
        .set(body)
        .where(and(eq(emailOutbox.id, id), isNull(emailOutbox.subject)))
        .returning({ kind: emailOutbox.kind, to: emailOutbox.to });
      if (row) queued(id, { ...row, ...body });
    },
    flush,
    start(intervalMs = 10_000) {
      if (!transport || timer) return;
      stopped = false;
      // What an earlier process left behind (stopped, or killed mid-send) goes out now, not in one interval.
      flushLogged();
      timer = setInterval(flushLogged, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      for (const s of sleeps) {
        clearTimeout(s.timer);
        s.resolve();
      }
      sleeps.clear();
      await running?.catch(() => {});
      transport?.close();
    },
  };
}

/** Pending outbox count, for health and tests. */
export async function pendingMailCount(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.emailOutbox).where(eq(schema.emailOutbox.status, "pending"));
  return row?.n ?? 0;
}
