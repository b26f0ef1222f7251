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
}

/** Declares a template (keeps `T` inferred from `content`). */
export const defineEmailTemplate = <T>(template: EmailTemplate<T>) => template;

/** Renders a template with the shared layout. */
export const renderTemplate = <T>(template: EmailTemplate<T>, data: T, env: EmailEnv): RenderedEmail => renderEmail(template.content(data, env), env);

/** Renders a template and stores it in the outbox (inside `db`'s transaction when given one). */
export function enqueueTemplate<T>(
  deps: { mailer: Mailer; config: EmailEnv },
  db: Database,
  template: EmailTemplate<T>,
  to: string,
  data: T,
): Promise<string> {
  return deps.mailer.enqueue(db, { kind: template.kind, to, ...renderTemplate(template, data, deps.config) });
}
