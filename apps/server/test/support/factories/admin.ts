import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { schema } from "@elo/db";
import type { Harness } from "../harness";
import { nicheIds } from "./schools";

const fixturesDir = fileURLToPath(new URL("../../fixtures/csv/", import.meta.url));

/** The bytes of a CSV fixture under test/fixtures/csv. */
export const csvFixture = (name: string) => readFileSync(path.join(fixturesDir, name));

/** The multipart body the browser sends to admin.csv.preview. */
export function csvForm(bytes: Uint8Array | string, fileName = "escolas.csv") {
  const form = new FormData();
  form.append("file", new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], fileName, { type: "text/csv" }));
  return form;
}

/** A benefit of `schoolId` (enough to block the school's deletion). */
export async function createDiscount(h: Pick<Harness, "db">, schoolId: string) {
  const ids = await nicheIds(h, "Idiomas");
  const [d] = await h.db
    .insert(schema.discounts)
    .values({
      schoolId,
      ...ids,
      teachingStage: "iniciante",
      className: "Turma A",
      classPeriod: "manha",
      discountScope: "city",
      monthlyFee: 500,
      discountPercentage: 10,
      discountedFee: 450,
      discountValidity: "first_month",
      numberOfStudents: 3,
    })
    .returning({ id: schema.discounts.id });
  return d!;
}
