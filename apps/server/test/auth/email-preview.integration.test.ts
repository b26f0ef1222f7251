import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin, createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe("auth.emailPreviews", () => {
  it("gives an admin every template, the recovery e-mail first, linking to the public origin", async () => {
    const admin = await createAdmin(h);
    const previews = await (await h.caller(admin.id)).auth.emailPreviews();
    expect(previews[0]).toMatchObject({ kind: "password-reset", label: "Recuperação de senha" });
    expect(previews[0]!.html).toContain(`${h.config.publicOrigin}/reset-password?token=`);
  });

  it("refuses a parent (FORBIDDEN) and a visitor (UNAUTHORIZED)", async () => {
    const parent = await createUser(h);
    await expect((await h.caller(parent.id)).auth.emailPreviews()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await h.caller(null)).auth.emailPreviews()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
