import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { freePort } from "../support/child-server";
import { createStaff } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

let h: Harness;
let proc: ChildProcess | undefined;
let out = "";
let err = "";
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  proc?.kill("SIGKILL");
  await h.close();
});

const waitFor = async (done: () => boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out; stdout:\n${out}\nstderr:\n${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("examples/webhook-receiver.mjs against the real sender", () => {
  it("prints the ping and a reserved voucher, and refuses an altered delivery", async () => {
    const port = await freePort();
    const school = await createOfferingSchool(h);
    const desk = await h.caller((await createStaff(h, school.id)).id);
    const endpoint = await desk.school.webhooks.create({ url: `http://localhost:${port}/webhooks`, events: ["voucher.reserved"] });
    proc = spawn(process.execPath, [path.join(repoRoot, "examples", "webhook-receiver.mjs")], { cwd: repoRoot, env: { PATH: process.env.PATH, ELO_WEBHOOK_SECRET: endpoint.secret, PORT: String(port) } });
    proc.stdout!.on("data", (d) => (out += d));
    proc.stderr!.on("data", (d) => (err += d));
    await waitFor(() => out.includes("pronto em"));

    await desk.school.webhooks.test({ id: endpoint.id });
    const benefit = await createDiscount(h, school.id, { className: "Inglês Teens" });
    const voucher = await (await h.caller((await eligibleParent(h)).id)).claim.create({ discountId: benefit.id });
    expect(await h.deps.webhooks.flush()).toBe(2);
    await waitFor(() => out.includes(voucher.voucherCode));
    expect(out).toContain("ping");
    expect(out).toMatch(new RegExp(`voucher.reserved \\S+ voucher ${voucher.voucherCode} \\(Aluno de Teste, Inglês Teens\\): reservado`));

    // A copy with a changed body is refused and not printed.
    const res = await fetch(`http://localhost:${port}/webhooks`, {
      method: "POST",
      headers: { "webhook-id": "x", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" },
      body: JSON.stringify({ type: "voucher.used", data: {} }),
    });
    expect(res.status).toBe(400);
    await waitFor(() => err.includes("recusado"));
    expect(out).not.toContain("voucher.used");
  });
});
