import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { createServer, type Server } from "node:net";
import { webhookMessages as m } from "@elo/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointUrlProblem, isPublicAddress } from "../../src/webhooks/address-guard";
import { postWebhook } from "../../src/webhooks/post";
import { createOfferingSchool } from "../support/factories/benefits";
import { createStaff } from "../support/factories/schools";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
/** A listening socket on 127.0.0.1 that counts connections: a refused delivery never reaches it. */
let socket: Server;
let connections = 0;
let port = 0;
beforeAll(async () => {
  h = await createHarness();
  socket = createServer((c) => (connections++, c.destroy()));
  await new Promise<void>((resolve) => socket.listen(0, "127.0.0.1", resolve));
  port = (socket.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => socket.close(resolve));
  await h.close();
});

/** A resolver answering `answers(name)` for every name (the test's DNS). */
function fakeDns(answers: (name: string) => string[]): typeof dnsLookup {
  return ((name: string, _opts: unknown, cb: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
    cb(null, answers(name).map((address) => ({ address, family: address.includes(":") ? 6 : 4 })))) as unknown as typeof dnsLookup;
}

const PRIVATE = ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.0.10", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:a9fe:a9fe"];

describe("webhook SSRF guard (production)", () => {
  it("judges addresses: private, loopback, link-local, ULA, CGNAT and mapped IPv4 are not public", () => {
    for (const ip of PRIVATE) expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ["8.8.8.8", "2001:4860:4860::8888", "200.147.67.142"]) expect(isPublicAddress(ip), ip).toBe(true);
  });

  it("refuses endpoint URLs naming such addresses, http outside localhost, and credentials", () => {
    for (const url of ["https://127.0.0.1/h", "https://10.0.0.5/h", "https://169.254.169.254/latest/meta-data", "https://[::1]/h", "https://[::ffff:7f00:1]/h", "https://localhost/h", "https://2130706433/h", "https://0x7f.1/h"])
      expect(endpointUrlProblem(url, true), url).toBe(m.urlPrivate);
    expect(endpointUrlProblem("http://erp.escola.com.br/h", true)).toBe(m.urlHttps);
    expect(endpointUrlProblem("http://localhost:3000/h", true)).toBe(m.urlHttps);
    expect(endpointUrlProblem("ftp://erp.escola.com.br/h", false)).toBe(m.urlHttps);
    expect(endpointUrlProblem("https://user:pw@erp.escola.com.br/h", true)).toBe(m.urlCredentials);
    expect(endpointUrlProblem("https://erp.escola.com.br/h", true)).toBeNull();
    // Outside production, http goes to localhost only.
    expect(endpointUrlProblem("http://localhost:3000/h", false)).toBeNull();
    expect(endpointUrlProblem("http://erp.escola.com.br/h", false)).toBe(m.urlHttps);
  });

  it("refuses at connect time a name resolving to a private address, any of several answers, and a DNS answer that changes after a first public one", async () => {
    for (const ip of ["127.0.0.1", "10.0.0.7", "169.254.169.254", "::1"]) {
      const r = await postWebhook(`https://interno.exemplo.com.br:${port}/h`, {}, "{}", { production: true, resolve: fakeDns(() => [ip]) });
      expect(r, ip).toMatchObject({ statusCode: null, error: expect.stringContaining("refused") });
    }
    const mixed = await postWebhook(`https://misto.exemplo.com.br:${port}/h`, {}, "{}", { production: true, resolve: fakeDns(() => ["8.8.8.8", "127.0.0.1"]) });
    expect(mixed.error).toContain("refused");
    // Rebinding: the first answer is public (the connection is tried: it fails on its own), the next is loopback.
    let calls = 0;
    const rebinding = fakeDns(() => (++calls === 1 ? ["8.8.8.8"] : ["127.0.0.1"]));
    const first = await postWebhook(`https://muda.exemplo.com.br:${port}/h`, {}, "{}", { production: true, resolve: rebinding, timeoutMs: 300 });
    expect(first.error ?? "").not.toContain("refused: ");
    const second = await postWebhook(`https://muda.exemplo.com.br:${port}/h`, {}, "{}", { production: true, resolve: rebinding, timeoutMs: 300 });
    expect(second.error).toContain("refused: 127.0.0.1");
    expect(calls).toBe(2);
    // Literal addresses never reach the socket either.
    for (const host of ["127.0.0.1", "[::1]", "[::ffff:127.0.0.1]"]) {
      expect((await postWebhook(`https://${host}:${port}/h`, {}, "{}", { production: true })).error, host).toBeTruthy();
    }
    expect(connections).toBe(0);
  });

  it("the desk's API refuses such URLs with a Portuguese message (production configuration)", async () => {
    const staff = await createStaff(h, (await createOfferingSchool(h)).id);
    const desk = await h.caller(staff.id);
    Object.assign(h.deps.config, { isProduction: true });
    try {
      for (const url of [`https://127.0.0.1:${port}/h`, "https://10.0.0.1/h", "https://169.254.169.254/", "https://[::1]/h", `http://localhost:${port}/h`])
        await expect(desk.school.webhooks.create({ url, events: ["voucher.used"] }), url).rejects.toMatchObject({ code: "BAD_REQUEST" });
      const ok = await desk.school.webhooks.create({ url: "https://erp.escola.com.br/elo", events: ["voucher.used"] });
      await expect(desk.school.webhooks.update({ id: ok.id, url: "https://[fd00::1]/h" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: m.urlPrivate });
    } finally {
      Object.assign(h.deps.config, { isProduction: false });
    }
  });
});
