import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/http/rate-limit";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { RATE_LIMIT: "1" } });
});
afterAll(() => h.close());

/** Recovery requests for unknown e-mails, each from a different forged X-Forwarded-For; the statuses. */
async function forgedRequests(url: string, n: number, firstIp = 1) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/trpc/auth.requestPasswordReset`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json", "x-forwarded-for": `203.0.113.${i + firstIp}` },
      body: JSON.stringify({ json: { email: `ninguem${i}@example.com.br` } }),
    });
    statuses.push(res.status);
  }
  return statuses;
}

describe("TRUST_PROXY and the per-IP rate limits", () => {
  const max = RATE_LIMITS.recovery.max;

  it("off (default): a forged X-Forwarded-For does not give a fresh IP", async () => {
    const server = await h.startServer();
    try {
      const statuses = await forgedRequests(server.url, max + 1);
      expect(statuses.slice(0, max).every((s) => s === 200)).toBe(true);
      expect(statuses[max]).toBe(429);
    } finally {
      await server.close();
    }
  });

  it("set to the proxy's address: its X-Forwarded-For names the client", async () => {
    const server = await h.startServer({ TRUST_PROXY: "127.0.0.1" });
    try {
      expect(await forgedRequests(server.url, max + 1, 101)).toEqual(Array(max + 1).fill(200));
    } finally {
      await server.close();
    }
  });
});

describe("TRUST_PROXY naming another proxy", () => {
  it("ignores X-Forwarded-For from a peer that is not that proxy", async () => {
    const server = await h.startServer({ TRUST_PROXY: "10.9.8.7" });
    try {
      expect((await forgedRequests(server.url, RATE_LIMITS.recovery.max + 1, 201)).at(-1)).toBe(429);
    } finally {
      await server.close();
    }
  });
});
