import { schema, type Database } from "@elo/db";
import type { FastifyBaseLogger } from "fastify";
import { and, eq, lte, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Clock } from "../lib/clock";

export interface MailMessage {
  /** What the message is (password-reset, voucher...), for the log and the outbox. */
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface Mailer {
  /** Stores the message in the outbox (inside the caller's transaction when given one). */
  enqueue(db: Database, message: MailMessage): Promise<string>;
  /** Sends what is due; returns how many were sent. */
  flush(): Promise<number>;
  /** Starts the background sender (no-op without SMTP). */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
  readonly smtpEnabled: boolean;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
export const backoffMs = (attempts: number) => Math.min(2 ** attempts * 15_000, MAX_BACKOFF_MS);

/** Outbox-backed mailer: SMTP through nodemailer when `smtpUrl` is set, otherwise the outbox and the log. */
export function createMailer(opts: { db: Database; smtpUrl?: string; from: string; clock: Clock; logger: FastifyBaseLogger }): Mailer {
  const transport: Transporter | null = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function sendDue(): Promise<number> {
    if (!transport) return 0;
    let sent = 0;
    for (;;) {
      const claimed = await opts.db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(schema.emailOutbox)
          .where(and(eq(schema.emailOutbox.status, "pending"), lte(schema.emailOutbox.nextAttemptAt, opts.clock.now())))
          .orderBy(schema.emailOutbox.createdAt)
          .limit(1)
          .for("update", { skipLocked: true });
        if (!row) return null;
        try {
          await transport.sendMail({ from: opts.from, to: row.to, subject: row.subject, html: row.html, text: row.text });
          await tx.update(schema.emailOutbox).set({ status: "sent", sentAt: opts.clock.now(), attempts: row.attempts + 1, lastError: null }).where(eq(schema.emailOutbox.id, row.id));
          return "sent";
        } catch (error) {
          const attempts = row.attempts + 1;
          await tx
            .update(schema.emailOutbox)
            .set({ attempts, lastError: String((error as Error).message ?? error).slice(0, 500), nextAttemptAt: new Date(opts.clock.now().getTime() + backoffMs(attempts)) })
            .where(eq(schema.emailOutbox.id, row.id));
          opts.logger.warn({ outboxId: row.id, attempts }, "e-mail delivery failed; will retry");
          return "failed";
        }
      });
      if (claimed === null) break;
      if (claimed === "sent") sent++;
      else break;
    }
    return sent;
  }

  return {
    smtpEnabled: transport !== null,
    async enqueue(db, message) {
      const [row] = await db.insert(schema.emailOutbox).values({ ...message, nextAttemptAt: opts.clock.now() }).returning({ id: schema.emailOutbox.id });
      if (!transport) opts.logger.info({ kind: message.kind, to: message.to, subject: message.subject, text: message.text }, "e-mail kept in the outbox (no SMTP_URL)");
      else queueMicrotask(() => void this.flush().catch(() => {}));
      return row!.id;
    },
    flush() {
      running ??= sendDue().finally(() => {
        running = null;
      });
      return running;
    },
    start(intervalMs = 10_000) {
      if (!transport || timer) return;
      timer = setInterval(() => void this.flush().catch((e) => opts.logger.warn({ err: e }, "outbox flush failed")), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
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
