import { schema } from "@elo/db";
import { CSV_COLUMNS } from "@elo/shared";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../src/routers/_app";
import { createHarness, type Harness } from "../support/harness";
import { csvForm } from "../support/factories/admin";
import { AUTHZ_TABLE } from "./authz-table";
import { actorUserId, buildWorld, targetOf, type Actor } from "./authz-world";
import { applyMutation, checkRefusal, CONTROL_TEXTS, fieldMutations, inputFields, leafCount, mutation, rowCounts, valueAt, withValueAt } from "./hostile";

type RuntimeProcedure = { _def: { type: string; inputs: unknown[] } };
const procedures = Object.entries((appRouter._def as unknown as { procedures: Record<string, RuntimeProcedure> }).procedures).sort(([a], [b]) => a.localeCompare(b));
/** Multipart procedures take a FormData, not JSON: covered by their own cases below. */
const FORM_DATA = new Set(["admin.csv.preview", "admin.schools.uploadLogo"]);
const withInput = procedures.filter(([p, proc]) => proc._def.inputs.length > 0 && !FORM_DATA.has(p));

/** Runs per procedure: small enough for CI, over 1,000 hostile calls in all. */
const RUNS = 25;
const PREFERRED: Actor[] = ["parentA", "staffA", "admin", "pendingInstitution", "anonymous"];

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const tally = { calls: 0, refused: 0, accepted: 0 };

const invoke = (api: object, path: string, input: unknown) => (path.split(".").reduce<any>((n, k) => n[k], api) as (i: unknown) => Promise<unknown>)(input);

describe("hostile input on every procedure that takes one", () => {
  it("covers every procedure with an input", () => {
    expect(withInput.length).toBeGreaterThan(40);
    for (const [p] of withInput) expect(AUTHZ_TABLE[p]?.input, `${p} needs a sample input in authz-table.ts`).toBeDefined();
  });

  for (const [path, procedure] of withInput) {
    it(path, { timeout: 120_000 }, async () => {
      const entry = AUTHZ_TABLE[path]!;
      // The caller who may use the procedure, so the input parser and handler are really reached.
      const actor = PREFERRED.find((a) => entry.expect[a] === "ok")!;
      const w = await buildWorld(h);
      const api = await h.caller(actorUserId(w, actor));
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          const valid = await entry.input!(h, w, targetOf(w, actor));
          const input = applyMutation(valid, m);
          const before = await rowCounts(h);
          tally.calls++;
          try {
            await invoke(api, path, input);
            tally.accepted++;
          } catch (error) {
            tally.refused++;
            const problem = checkRefusal(error);
            if (problem) throw new Error(`${path} ${fc.stringify(m).slice(0, 200)}: ${problem}`);
            // A refused call leaves nothing behind.
            expect(await rowCounts(h), `${path} wrote rows before refusing ${fc.stringify(m).slice(0, 200)}`).toEqual(before);
          }
        }),
        { numRuns: RUNS, endOnFailure: true },
      );

      // Deterministic sweep on top of the random runs: a NUL byte and an over-long text in each field in turn.
      const sample = await entry.input!(h, w, targetOf(w, actor));
      const fields = Math.max(1, leafCount(sample));
      for (let leaf = 0; leaf < fields; leaf++) {
        for (const value of ["x\u0000y", "a".repeat(100_000)]) {
          const before = await rowCounts(h);
          tally.calls++;
          tally.refused++;
          const error = await invoke(api, path, applyMutation(sample, { kind: "string", leaf, value })).then(() => null, (e: unknown) => e);
          expect(error, `${path} accepted ${value.length > 10 ? "an over-long text" : "a NUL byte"} in field ${leaf}`).not.toBeNull();
          expect(checkRefusal(error), path).toBeNull();
          expect(await rowCounts(h)).toEqual(before);
        }
        // A number past PostgreSQL's integer range in each field: refused cleanly (a 4xx, nothing
        // written) or accepted, never a database error.
        const before = await rowCounts(h);
        tally.calls++;
        const error = await invoke(api, path, applyMutation(sample, { kind: "type", leaf, value: Number.MAX_SAFE_INTEGER })).then(() => null, (e: unknown) => e);
        if (error) {
          tally.refused++;
          expect(checkRefusal(error), `${path} field ${leaf} with ${Number.MAX_SAFE_INTEGER}`).toBeNull();
          expect(await rowCounts(h)).toEqual(before);
        }
      }

      // Schema-driven sweep (decision 108): each string and number field of the zod input, in the
      // sample or not. Control characters and tokens crafted from the sample's (a cursor naming 30
      // February) are refused cleanly or accepted, never a 500; numbers with more than two decimals
      // are refused (none is ever stored rounded). An accepted call may use up the sample's rows: the
      // next call gets a fresh one.
      let base = sample;
      for (const field of procedure._def.inputs.flatMap((schema) => inputFields(schema))) {
        for (const m of fieldMutations(field, valueAt(sample, field.path))) {
          const input = withValueAt(base, field.path, m.value);
          const where = `${path} ${field.path.join(".")} with ${m.label}`;
          const before = await rowCounts(h);
          tally.calls++;
          const error = await invoke(api, path, input).then(() => null, (e: unknown) => e);
          if (m.mustRefuse) expect(error, `${where} was accepted`).not.toBeNull();
          if (!error) {
            tally.accepted++;
            base = await entry.input!(h, w, targetOf(w, actor));
            continue;
          }
          tally.refused++;
          expect(checkRefusal(error), where).toBeNull();
          expect(await rowCounts(h), where).toEqual(before);
        }
      }
    });
  }

  it("multipart procedures refuse JSON, empty forms and the wrong file cleanly", async () => {
    const w = await buildWorld(h);
    const api = await h.caller(w.admin.id);
    const empty = new FormData();
    const wrongFile = new FormData();
    wrongFile.append("schoolId", w.schoolA.id);
    wrongFile.append("file", new File(["MZ\u0000\u0000 not an image"], "logo.png", { type: "image/png" }));
    const badId = new FormData();
    badId.append("schoolId", "../../etc\u0000");
    // A CSV row with a NUL byte or control characters in each column in turn (decision 108).
    const csvRows = CSV_COLUMNS.flatMap((column) =>
      ["x\u0000y", ...CONTROL_TEXTS].map((text) => csvForm(`${CSV_COLUMNS.join(",")}\n${CSV_COLUMNS.map((c) => (c === column ? `"${text}"` : c === "name" ? "Escola" : "")).join(",")}\n`)),
    );
    for (const path of FORM_DATA) {
      for (const input of [{ file: "x" }, "texto", null, empty, wrongFile, badId, ...(path === "admin.csv.preview" ? csvRows : [])]) {
        const before = await rowCounts(h);
        tally.calls++;
        const error = await invoke(api, path, input).then(
          () => null,
          (e: unknown) => e,
        );
        if (error === null) {
          tally.accepted++;
          continue;
        }
        tally.refused++;
        expect(checkRefusal(error), `${path} ${String(input)}`).toBeNull();
        expect(await rowCounts(h)).toEqual(before);
      }
    }
  });

  afterAll(() => {
    console.info(`[hostile-input] ${withInput.length + FORM_DATA.size} procedures, ${tally.calls} hostile calls: ${tally.refused} refused cleanly, ${tally.accepted} accepted`);
  });
});

describe("mass assignment: keys the client must never set", () => {
  it("profile.update refuses role, profileCompleted, userId, enrollmentProofSubmitted and schoolId; the row is unchanged", async () => {
    const w = await buildWorld(h);
    await h.db.update(schema.profiles).set({ profileCompleted: false, enrollmentProofSubmitted: false }).where(eq(schema.profiles.userId, w.parentB.id));
    const api = await h.caller(w.parentB.id);
    const before = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, w.parentB.id));
    const extras = { role: "admin", profileCompleted: true, profile_completed: true, userId: w.parentA.id, user_id: w.parentA.id, enrollmentProofSubmitted: true, schoolId: w.schoolA.id };
    for (const [key, value] of Object.entries(extras)) {
      await expect(api.profile.update({ publicSchoolPaidActivity: true, studentName: "Trocado", [key]: value } as never), key).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    expect(await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, w.parentB.id))).toEqual(before);
    expect(await h.db.select().from(schema.userRoles).where(eq(schema.userRoles.userId, w.parentB.id))).toEqual([]);
  });

  it("auth.signup refuses role and profile_completed: no account is created", async () => {
    const input = await AUTHZ_TABLE["auth.signup"]!.input!(h, await buildWorld(h), {} as never);
    const api = await h.caller(null);
    for (const extra of [{ role: "admin" }, { isAdmin: true }, { profileCompleted: true }, { profile_completed: true }, { userId: crypto.randomUUID() }]) {
      const before = await rowCounts(h);
      await expect(api.auth.signup({ ...(input as object), ...extra } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
      expect(await rowCounts(h)).toEqual(before);
    }
  });

  it("school benefits: discountedFee, schoolId and userId are refused; the server computes the fee", async () => {
    const w = await buildWorld(h);
    const api = await h.caller(w.staffA.id);
    const values = (await AUTHZ_TABLE["school.benefits.create"]!.input!(h, w, targetOf(w, "staffA"))) as { monthlyFee: number; discountPercentage: number };
    for (const extra of [{ discountedFee: 1 }, { discounted_fee: 1 }, { schoolId: w.schoolB.id }, { school_id: w.schoolB.id }, { userId: w.parentA.id }, { status: "paused" }]) {
      const before = await rowCounts(h);
      await expect(api.school.benefits.create({ ...values, ...extra } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
      expect(await rowCounts(h)).toEqual(before);
      await expect(api.school.benefits.update({ id: w.benefitA.id, values: { ...values, ...extra } } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    const [untouched] = await h.db.select().from(schema.discounts).where(eq(schema.discounts.id, w.benefitA.id));
    expect(untouched).toEqual(w.benefitA);
    const created = await api.school.benefits.create(values as never);
    expect(created.discountedFee).toBe(values.monthlyFee * (1 - values.discountPercentage / 100));
  });

  it("school data, institution profile, enrollments and API tokens refuse schoolId/userId/role", async () => {
    const w = await buildWorld(h);
    const staff = await h.caller(w.staffA.id);
    const parent = await h.caller(w.parentA.id);
    const dataInput = (await AUTHZ_TABLE["school.data.save"]!.input!(h, w, targetOf(w, "staffA"))) as object;
    const [schoolB] = await h.db.select().from(schema.schools).where(eq(schema.schools.id, w.schoolB.id));
    await expect(staff.school.data.save({ ...dataInput, schoolId: w.schoolB.id } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(staff.school.data.save({ ...dataInput, id: w.schoolB.id } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await h.db.select().from(schema.schools).where(eq(schema.schools.id, w.schoolB.id)))[0]).toEqual(schoolB);
    await expect(staff.school.profile.save({ fullName: "X", role: "admin" } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(staff.school.profile.save({ fullName: "X", status: "approved", schoolId: w.schoolB.id } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(parent.profile.enrollments.save({ schoolId: w.schoolA.id, userId: w.parentB.id } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(parent.apiTokens.create({ name: "x", userId: w.parentB.id } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await h.db.select().from(schema.enrollments).where(eq(schema.enrollments.userId, w.parentB.id))).toEqual([]);
  });
});
