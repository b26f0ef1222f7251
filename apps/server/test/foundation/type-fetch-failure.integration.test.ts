import type { DatabaseHandle } from "@elo/db";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServerBundle, spawnServer, type ChildServer } from "../support/child-server";
import { eventually } from "../support/eventually";
import { createHarness, type Harness } from "../support/harness";
import { tcpProxy } from "../support/tcp-proxy";
import { onRealPostgres } from "../support/test-db";

/**
 * Decision 222 end to end: the production bundle on PostgreSQL behind a loopback proxy that resets
 * the connection in the middle of postgres.js's own type query (`pg_catalog.pg_type`), the query
 * whose rejection the driver drops. Without the guard in main.ts, Node ends the process on that
 * unhandled rejection; with it, the process logs it and answers again once PostgreSQL is reachable.
 */
describe.skipIf(!onRealPostgres())("a connection lost during postgres.js's type query", () => {
  let h: Harness;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let bundle: ReturnType<typeof buildServerBundle>;
  let server: ChildServer;

  beforeAll(async () => {
    h = await createHarness({ poolMax: 2 });
    const direct = new URL((h.dbHandle as DatabaseHandle & { url: string | null }).url!);
    proxy = await tcpProxy(Number(direct.port || 5432), direct.hostname);
    direct.port = String(proxy.port);
    bundle = buildServerBundle();
    server = await spawnServer(bundle.bundle, direct.toString(), { LOG_LEVEL: "warn" });
  }, 180_000);

  afterAll(async () => {
    await server?.dispose();
    bundle?.remove();
    await proxy?.close();
    await h?.close();
  });

  it("does not end the server process; the next requests are answered", { timeout: 90_000 }, async () => {
    const cut = proxy.resetWhenClientSends("pg_catalog.pg_type");
    let done = false;
    void cut.then(() => (done = true));
    // Every connection of the server's pools must be opened again: each new one runs the type query
    // first. Both the readiness ping's connection and the pool's are asked; the cut is repeated (and
    // the proxy resets what is open) until one of them has reconnected through it (once is enough
    // on an idle machine).
    const terminate = () =>
      h.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    await terminate();
    await eventually(async () => {
      await Promise.all(
        ["/readyz", "/trpc/reference.states"].map((path) => fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(3000) }).catch(() => {})),
      );
      if (done) return;
      const [{ n }] = (await h.db.execute(sql`select count(*)::int as n from pg_stat_activity`)) as unknown as [{ n: number }];
      await terminate();
      proxy.resetOpen();
      expect.fail(`no type query reached the proxy: ${proxy.report()}; ${n} sessions on the server\n${server.output()}`);
    }, 40_000);

    // The rejection reaches the process a moment later; without the guard Node ends it (exit code 1).
    const exited = await Promise.race([server.exited, new Promise((r) => setTimeout(r, 2000, null))]);
    expect(exited, server.output()).toBeNull();
    await eventually(async () => expect(server.output()).toContain("could not read the array types"), 10_000);
    await eventually(async () => {
      const res = await fetch(`${server.url}/trpc/reference.states`, { signal: AbortSignal.timeout(3000) });
      expect(res.status).toBe(200);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    }, 20_000);
  });
});
