import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../src/routers/_app";
import { createHarness, type Harness } from "../support/harness";
import { AUTHZ_TABLE, type Outcome } from "./authz-table";
import { ACTORS, actorUserId, buildWorld, storedSecrets, targetOf, type Actor, type World } from "./authz-world";

type RuntimeProcedure = { _def: { type: "query" | "mutation" | "subscription" } };
/** Every procedure, read from the router itself so that a new one is in the matrix at once. */
const PROCEDURES = Object.entries((appRouter._def as unknown as { procedures: Record<string, RuntimeProcedure> }).procedures).sort(([a], [b]) => a.localeCompare(b));

let h: Harness;
/** The world most procedures share; entries marked `isolate` get their own. */
let shared: World;
beforeAll(async () => {
  h = await createHarness();
  shared = await buildWorld(h);
});
afterAll(() => h.close());

/** Figures for docs/reliability.md, printed at the end. */
const tally = { calls: 0, procedures: 0 };

async function call(w: World, actor: Actor, path: string, type: RuntimeProcedure["_def"]["type"]): Promise<{ outcome: Outcome | string; output: unknown }> {
  const entry = AUTHZ_TABLE[path]!;
  const input = entry.input ? await entry.input(h, w, targetOf(w, actor)) : undefined;
  const api = await h.caller(actorUserId(w, actor));
  const fn = path.split(".").reduce<any>((node, key) => node[key], api) as (input: unknown) => Promise<unknown>;
  tally.calls++;
  try {
    const output = await fn(input);
    if (type === "subscription") {
      // The stream itself is not read: reaching it means the access checks passed.
      const it = (output as AsyncIterable<unknown>)[Symbol.asyncIterator]?.();
      await it?.return?.();
      return { outcome: "ok", output: null };
    }
    return { outcome: "ok", output };
  } catch (error) {
    if (error instanceof TRPCError) return { outcome: error.code, output: { message: error.message } };
    return { outcome: `non-tRPC error: ${String(error)}`, output: null };
  }
}

const serialise = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x instanceof FormData ? "[form]" : x)) ?? "";

describe("authorization matrix: every procedure × every actor", () => {
  it("declares every procedure of the router, and nothing else", () => {
    const routed = PROCEDURES.map(([p]) => p);
    expect(routed.filter((p) => !AUTHZ_TABLE[p]), "procedures missing from authz-table.ts").toEqual([]);
    expect(Object.keys(AUTHZ_TABLE).filter((p) => !routed.includes(p)), "entries for procedures that no longer exist").toEqual([]);
  });

  for (const [path, proc] of PROCEDURES) {
    it(`${path} (${proc._def.type})`, async () => {
      const entry = AUTHZ_TABLE[path];
      expect(entry, `${path} is not declared in authz-table.ts`).toBeDefined();
      tally.procedures++;
      const got: Record<string, string> = {};
      const outputs: string[] = [];
      const own = entry!.isolate ? await buildWorld(h) : shared;
      // Refusals first: a success that changes rows (a delete) must not be what makes a later actor fail.
      const order = [...ACTORS].sort((a, b) => Number(entry!.expect[a] === "ok") - Number(entry!.expect[b] === "ok"));
      for (const actor of order) {
        const w = entry!.isolate === "perActor" ? await buildWorld(h) : own;
        const { outcome, output } = await call(w, actor, path, proc._def.type);
        got[actor] = outcome;
        outputs.push(serialise(output));
      }
      expect(got).toEqual(entry!.expect);

      // No answer, to anyone, carries a password hash or the hash of a session, token or reset link.
      const text = outputs.join("\n");
      expect(text).not.toContain("$argon2");
      const leaked = (await storedSecrets(h)).filter((s) => text.includes(s));
      expect(leaked, "secret hashes in procedure outputs").toEqual([]);
    });
  }

  afterAll(() => {
    console.info(`[authz-matrix] ${tally.procedures} procedures × ${ACTORS.length} actors = ${tally.calls} calls`);
  });
});
