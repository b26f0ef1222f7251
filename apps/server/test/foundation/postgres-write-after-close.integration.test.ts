import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { onRealPostgres } from "../support/test-db";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * Decision 228: postgres.js 3.4.9 schedules small writes on setImmediate and, when the socket has
 * closed meanwhile, the callback writes to `null` and throws where no caller can catch it, ending
 * the process (porsager/postgres#1154, #1208); a connection torn down with a write pending also kept
 * a stale timer and never flushed again. The patch in patches/ (applied by npm's postinstall) is
 * proven in a child process, since the unpatched driver kills the process that runs it: a
 * transaction whose backend is terminated mid-statement rolls back on a closed socket.
 */
const script = `
import postgres from "postgres";
const url = process.argv[1];
const sql = postgres(url, { max: 2, onnotice: () => {} });
const killer = postgres(url, { max: 1, onnotice: () => {} });
let pid = null;
const tx = sql.begin(async (t) => {
  [{ pid }] = await t\`select pg_backend_pid() as pid\`;
  await t\`select pg_sleep(5)\`;
});
while (pid === null) await new Promise((r) => setTimeout(r, 20));
await killer\`select pg_terminate_backend(\${pid})\`;
const failure = await tx.then(() => "committed", (e) => e.code);
// The pool answers again: the first statements may still meet the closed connection's error.
let answered = false;
for (let i = 0; i < 5 && !answered; i++) {
  answered = await Promise.race([sql\`select 1\`.then(() => true, () => false), new Promise((r) => setTimeout(r, 3000, false))]);
}
console.log(JSON.stringify({ failure, answered }));
await Promise.all([sql.end({ timeout: 1 }), killer.end({ timeout: 1 })]);
`;

describe.skipIf(!onRealPostgres())("postgres.js writing after its connection closed (decision 228)", () => {
  it("a transaction whose backend is terminated fails with CONNECTION_CLOSED; the process lives and the pool answers", { timeout: 60_000 }, async () => {
    const url = new URL(inject("pgTemplateUrl")!);
    url.pathname = "/postgres";
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ["--input-type=module", "-e", script, url.toString()], { cwd: repoRoot, timeout: 45_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({ failure: "CONNECTION_CLOSED", answered: true });
  });
});
