import { openDatabase, type DatabaseHandle } from "@elo/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/bootstrap";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { pngBytes, uploadForm } from "../support/factories/files";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { openProfileStream as openStream } from "../support/sse";
import { onRealPostgres } from "../support/test-db";

type Server = Awaited<ReturnType<typeof startServer>>;

let h: Harness;
let second: DatabaseHandle | null = null;
let serverA: Server;
let serverB: Server;
beforeAll(async () => {
  h = await createHarness();
  serverA = await h.startServer();
  // On PostgreSQL the second server gets its own connections, as a second process would.
  const url = (h.dbHandle as DatabaseHandle & { url: string | null }).url;
  second = url ? await openDatabase({ url, poolMax: 3 }) : null;
  serverB = await startServer(h.config, { clock: h.clock, dbHandle: second ?? h.dbHandle });
});
afterAll(async () => {
  await serverB?.close();
  await serverA?.close();
  await second?.close();
  await h.close();
});

describe("live profile updates (LISTEN/NOTIFY + SSE)", () => {
  it.skipIf(!onRealPostgres())("tells a tab on server B that the avatar changed through server A, and nobody else", async () => {
    const user = await createUser(h);
    const other = await createUser(h);
    const cookie = await sessionCookie(h, user.id);
    const mine = openStream(serverB.url, cookie);
    const theirs = openStream(serverB.url, await sessionCookie(h, other.id));
    await Promise.all([mine.opened, theirs.opened]);
    // Give the LISTEN a moment to be registered before the change.
    await new Promise((r) => setTimeout(r, 300));

    const res = await fetch(`${serverA.url}/api/uploads/avatar`, { method: "POST", headers: { cookie, origin: TEST_ORIGIN }, body: uploadForm(pngBytes(), "foto.png") });
    expect(res.status).toBe(200);
    const { avatarUrl } = (await res.json()) as { avatarUrl: string };
    const key = avatarUrl.split("?")[0]!;
    const event = await mine.waitFor((line) => line.includes(key));
    expect(event).toContain(user.email);
    await new Promise((r) => setTimeout(r, 300));
    expect(theirs.events).toEqual([]);
    mine.close();
    theirs.close();
  });

  it("refuses the stream without a session", async () => {
    const res = await fetch(`${serverB.url}/trpc/profile.changes`, { headers: { accept: "text/event-stream" } });
    const text = await res.text();
    expect(text).toMatch(/UNAUTHORIZED|401/);
  });

  it("also works within one process (PGlite or PostgreSQL)", async () => {
    const user = await createUser(h);
    const cookie = await sessionCookie(h, user.id);
    const stream = openStream(serverA.url, cookie);
    await stream.opened;
    await new Promise((r) => setTimeout(r, 300));
    const api = await h.caller(user.id);
    await api.profile.update({ phone: "(11) 98765-4321", publicSchoolPaidActivity: true });
    await stream.waitFor(() => true);
    stream.close();
  });
});
