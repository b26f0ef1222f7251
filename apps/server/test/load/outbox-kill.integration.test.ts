import { schema } from "@elo/db";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { spawnServer, withSpawnedServer, type ChildServer, type SpawnedWorld } from "../support/child-server";
import { place } from "../support/factories/schools";
import type { Harness } from "../support/harness";
import { startSmtpServer } from "../support/smtp";
import { onRealPostgres } from "../support/test-db";
import { byStatus, mutate, seedClaimStorm, type Outcome } from "./storm";

/**
 * Issue 15, point 8: `kill -9` during a storm of claims and school registrations on the spawned
 * built server. Every state change that committed must have its e-mail queued with it, so that
 * a server started afterwards (with SMTP) delivers exactly one e-mail per committed voucher and
 * per registered school, whatever the moment of the kill.
 */
const CLIENTS = 150;
const SCHOOL_REQUESTS = 40;
/** The kill comes after this many answers of each kind. */
const KILL_AFTER = { claim: 20, school: 3 };
/** ADMIN_EMAIL's default: both servers run without setting it. */
const ADMIN = "contato@eloescolar.com.br";

describe.skipIf(!onRealPostgres())("kill -9 during a claim storm (real PostgreSQL, spawned built server)", () => {
  let h: Harness;
  let world: SpawnedWorld;
  let server: ChildServer;
  withSpawnedServer((w) => ({ h, server } = (world = w)));

  it(`${CLIENTS} claims and ${SCHOOL_REQUESTS} school registrations, SIGKILL mid-storm: every committed change is e-mailed exactly once after restart`, async () => {
    const storm = await seedClaimStorm(h, CLIENTS, CLIENTS);
    const loc = await place(h);
    const schoolNames = Array.from({ length: SCHOOL_REQUESTS }, (_, i) => `Escola Pedida Kill ${process.pid} ${String(i).padStart(3, "0")}`);

    // The kill comes once both kinds have been answered a few times: the rest of each is in flight.
    const answers = { claim: 0, school: 0 };
    let killedAt = 0;
    const countAndKill = (kind: keyof typeof answers) => (o: Outcome) => {
      if (o.status !== 0) answers[kind]++;
      if (!killedAt && answers.claim >= KILL_AFTER.claim && answers.school >= KILL_AFTER.school) {
        killedAt = Date.now();
        server.proc.kill("SIGKILL");
      }
      return o;
    };
    // The registrations are sent among the claims, so that the kill finds both kinds half done.
    const requests = storm.cookies.flatMap((cookie, i) => [
      mutate(server.url, "claim.create", { discountId: storm.discountId }, cookie).then(countAndKill("claim")),
      ...(i < SCHOOL_REQUESTS
        ? [mutate(server.url, "profile.requestSchool", { name: schoolNames[i], stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId, target: "enrollment" }, cookie).then(countAndKill("school"))]
        : []),
    ]);
    const outcomes = await Promise.all(requests);
    expect((await server.exited).signal).toBe("SIGKILL");

    // What committed before the kill, whatever the clients were told.
    const vouchers = await h.db
      .select({ code: schema.discountTransactions.voucherCode, userId: schema.discountTransactions.userId, email: schema.users.email })
      .from(schema.discountTransactions)
      .innerJoin(schema.users, eq(schema.users.id, schema.discountTransactions.userId))
      .where(eq(schema.discountTransactions.discountId, storm.discountId));
    const schools = await h.db.select({ name: schema.schools.name }).from(schema.schools).where(and(inArray(schema.schools.name, schoolNames), eq(schema.schools.origin, "parent_request")));
    const answered = outcomes.filter((o) => o.status === 200).length;
    // Rows the killed process queued but never rendered: the next server renders them from their data.
    const unrendered = await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox).where(isNull(schema.emailOutbox.subject));

    // A server started afterwards delivers what the outbox holds.
    const smtp = await startSmtpServer();
    const again = await spawnServer(world.bundle.bundle, (h.dbHandle as { url: string }).url, { SMTP_URL: smtp.url });
    try {
      const expected = vouchers.length + schools.length;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const pending = await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox).where(eq(schema.emailOutbox.status, "pending"));
        if (pending.length === 0 && smtp.received.length >= Math.min(expected, 1)) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const mails = smtp.received;
      const voucherMailsMissing = vouchers.filter((v) => mails.filter((m) => m.to.includes(v.email) && m.text.includes(v.code)).length !== 1);
      const schoolMailsMissing = schools.filter((s) => mails.filter((m) => m.to.includes(ADMIN) && m.text.includes(s.name)).length !== 1);
      console.log(
        `[outbox-kill] ${JSON.stringify({
          clients: CLIENTS,
          schoolRequests: SCHOOL_REQUESTS,
          answeredBeforeKill: answered,
          statuses: byStatus(outcomes),
          noAnswer: outcomes.filter((o) => o.status === 0).length,
          vouchersCommitted: vouchers.length,
          unrenderedAtKill: unrendered.length,
          schoolsCommitted: schools.length,
          mailsDelivered: mails.length,
          voucherMailsMissing: voucherMailsMissing.length,
          schoolMailsMissing: schoolMailsMissing.length,
          deliveredWithinMs: Date.now() - killedAt,
        })}`,
      );

      // The kill really cut the storm: some requests never got an answer.
      expect(killedAt).toBeGreaterThan(0);
      expect(outcomes.some((o) => o.status === 0)).toBe(true);
      expect(vouchers.length).toBeGreaterThanOrEqual(KILL_AFTER.claim);
      expect(schools.length).toBeGreaterThanOrEqual(KILL_AFTER.school);
      expect(voucherMailsMissing.map((v) => v.code), "committed vouchers whose e-mail was lost").toEqual([]);
      expect(schoolMailsMissing.map((s) => s.name), "registered schools whose admin e-mail was lost").toEqual([]);
      expect(mails.length).toBe(expected);
      // And by key: each committed voucher has exactly one voucher row of its parent's.
      const voucherRows = await h.db
        .select({ userId: schema.emailOutbox.userId })
        .from(schema.emailOutbox)
        .where(and(eq(schema.emailOutbox.kind, "voucher"), inArray(schema.emailOutbox.userId, storm.parentIds)));
      expect(voucherRows.map((r) => r.userId).sort()).toEqual(vouchers.map((v) => v.userId).sort());
    } finally {
      await again.dispose();
      await smtp.close();
    }
  }, 240_000);
});

it.skipIf(onRealPostgres())("the kill test needs real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
