import type { Database } from "@elo/db";
import type { Mailer } from "../mailer";
import { renderEmail, type EmailContent, type EmailEnv, type RenderedEmail } from "./layout";

/** One kind of e-mail: its content from typed data, and sample data for /email-preview. */
export interface EmailTemplate<T> {
  /** Stored as the outbox row's `kind`. */
  kind: string;
  /** Shown on /email-preview. */
  label: string;
  content(data: T, env: EmailEnv): EmailContent;
  sample(env: EmailEnv): T;
  /**
   * Images the HTML shows by `cid:` (an `image` block), made when the message is sent rather than
   * stored in the outbox: the same data always gives the same image.
   */
  inlineImages?(data: T, env: EmailEnv): Promise<InlineImage[]>;
}

/** A picture attached to a message and shown in its HTML as `cid:<cid>`. */
export interface InlineImage {
  cid: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Declares a template (keeps `T` inferred from `content`). */
export const defineEmailTemplate = <T>(template: EmailTemplate<T>) => template;

/** Renders a template with the shared layout. */
export const renderTemplate = <T>(template: EmailTemplate<T>, data: T, env: EmailEnv): RenderedEmail => renderEmail(template.content(data, env), env);

/** Who an outbox row belongs to: its recipient's account (null for ADMIN_EMAIL) and, for admin mail, whom it is about. */
export interface MailOwners {
  userId: string | null;
  aboutUserId?: string | null;
}

/**
 * Renders a template and stores it in the outbox, with its data and owners, inside `db`'s
 * transaction when given one: queue it in the same transaction as the change it reports.
 */
export function enqueueTemplate<T>(
  deps: { mailer: Mailer; config: EmailEnv },
  db: Database,
  template: EmailTemplate<T>,
  to: string,
  owners: MailOwners,
  data: T,
): Promise<string> {
  return deps.mailer.enqueue(db, { kind: template.kind, to, ...owners, data, ...renderTemplate(template, data, deps.config) });
}

/** Renders a row that SQL queued with only its data (the claim statement) and starts its delivery. */
export function renderQueued<T>(deps: { mailer: Mailer; config: EmailEnv }, id: string, template: EmailTemplate<T>, data: T): Promise<void> {
  return deps.mailer.rendered(id, renderTemplate(template, data, deps.config));
}
