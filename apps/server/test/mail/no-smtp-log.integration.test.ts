import { Writable } from "node:stream";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

/**
 * Without SMTP_URL the outbox keeps each e-mail and the server logs that it did. In production the
 * log line must not carry the text: a password-reset link in the logs lets whoever reads them set
 * the recipient's password. In development it does (the demo's links to follow).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function resetThroughServer(env: Record<string, string>, origin: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const server = await h.startServer({ PUBLIC_URL: origin, ...env }, { logger: pino({ level: "info" }, sink) });
  try {
    const user = await createUser(h);
    const res = await fetch(`${server.url}/trpc/auth.requestPasswordReset`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ json: { email: user.email } }),
    });
    expect(res.status).toBe(200);
    await server.deps.background.settled();
    const [row] = await h.db.select({ text: schema.emailOutbox.text }).from(schema.emailOutbox).where(eq(schema.emailOutbox.to, user.email));
    const link = row!.text!.match(/https?:\/\/\S+/)![0];
    const kept = lines.filter((l) => l.msg === "e-mail kept in the outbox (no SMTP_URL)" && l.to === user.email);
    return { link, kept, all: JSON.stringify(lines) };
  } finally {
    await server.close();
  }
}

describe("e-mails without SMTP", () => {
  it("in production the log names the e-mail but never holds its text or link", async () => {
    const { link, kept, all } = await resetThroughServer({ NODE_ENV: "production" }, "https://eloescolar.test");
    expect(kept).toHaveLength(1);
    expect(kept[0]!.kind).toBe("password-reset");
    expect(kept[0]!.text).toBeUndefined();
    expect(all).not.toContain(link);
    expect(all).toContain("SMTP_URL is not set");
  });

  it("in development the log holds the text, links included", async () => {
    const { link, kept } = await resetThroughServer({}, "http://localhost:3000");
    expect(kept).toHaveLength(1);
    expect(String(kept[0]!.text)).toContain(link);
  });
});
