import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accessMessages, LIMITS } from "@elo/shared";
import { afterAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/http/rate-limit";
import { appRouter } from "../../src/routers/_app";
import { createApiToken } from "../support/factories/apiTokens";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { TEST_ORIGIN, withServer, type Harness, type TestServer } from "../support/harness";
import { rawExchange, type RawExchange } from "../support/raw-http";
import { outcomeOf, URL_VARIANTS, type Outcome, type UrlVariant } from "./limit-variants";

/**
 * Standing hostile suite for the rate limits (issue 15, points 2 and 12): every limited procedure,
 * and the per-token API limit, is called through every URL variant. A variant must be counted under
 * the same key as the plain path, or refused; it is never served past the limit. The cases come
 * from RATE_LIMITS and the API-token limit, so a new limited procedure is covered without a change here.
 */

/** Small, so each case takes few requests; the per-IP limits are the production numbers. */
const API_LIMIT = 6;

/** A stand-in for the built web app, so the not-found handler and its fallback page are in play. */
const webDist = mkdtempSync(path.join(tmpdir(), "elo-web-"));
writeFileSync(path.join(webDist, "index.html"), "<!doctype html><title>Elo Escolar</title>");
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

let h: Harness;
let server: TestServer;
// TRUST_PROXY lets each case be its own client (X-Forwarded-For), so the cases do not share counters.
withServer((s) => ({ h, server } = s), {
  env: { RATE_LIMIT: "1", TRUST_PROXY: "127.0.0.1", API_RATE_LIMIT_PER_MINUTE: String(API_LIMIT), WEB_DIST: webDist },
});

type ProcedureType = "query" | "mutation" | "subscription";
const procedures = (appRouter._def as unknown as { procedures: Record<string, { _def: { type: ProcedureType } }> }).procedures;

interface LimitCase {
  /** What the limit is keyed on: the client's IP, or the bearer token. */
  key: "ip" | "token";
  procedure: string;
  max: number;
}

const CASES: LimitCase[] = [
  ...Object.values(RATE_LIMITS).flatMap((l) => l.paths.map((procedure) => ({ key: "ip" as const, procedure, max: l.max }))),
  // The per-token limit covers every procedure; one query stands for them (its batch, GET, needs no body).
  { key: "token", procedure: "auth.me", max: API_LIMIT },
];

let lastIp = 0;
/** A client the server has not seen: a fresh X-Forwarded-For address, or a fresh API token. */
async function freshClient(c: LimitCase): Promise<Record<string, string>> {
  if (c.key === "ip") {
    const n = ++lastIp;
    return { "x-forwarded-for": `198.18.${n >> 8}.${n & 255}` };
  }
  const user = await createUser(h);
  return { authorization: `Bearer ${(await createApiToken(h, user.id)).token}` };
}

function request(c: LimitCase, variant: UrlVariant, client: Record<string, string>): RawExchange {
  const isQuery = procedures[c.procedure]!._def.type === "query";
  // `{}` fails every limited procedure's input check: the call is served (the procedure is resolved
  // and answers 400) without sending mail, hashing a password or writing a row.
  return {
    method: isQuery ? "GET" : "POST",
    target: variant.target(c.procedure, server.url),
    headers: { origin: TEST_ORIGIN, ...(isQuery ? {} : { "content-type": "application/json" }), ...client },
    body: isQuery ? undefined : "{}",
  };
}

const send = async (c: LimitCase, variant: UrlVariant, client: Record<string, string>): Promise<Outcome> => outcomeOf(await rawExchange(server.url, request(c, variant, client)));
const plain = URL_VARIANTS[0]!;

/** For docs/reliability.md: how each variant was treated, per limited procedure. */
const tally: Record<string, Record<string, string>> = {};
afterAll(() => {
  const summary = Object.fromEntries(
    Object.entries(tally).map(([variant, byProcedure]) => {
      const kinds = new Set(Object.values(byProcedure));
      return [variant, kinds.size === 1 ? [...kinds][0] : byProcedure];
    }),
  );
  console.log(JSON.stringify({ limitVariants: summary }));
});

describe("the limited procedures exist", () => {
  it.each(CASES.map((c) => c.procedure))("%s is a procedure of the router", (p) => {
    expect(procedures[p]).toBeDefined();
  });
});

for (const c of CASES) {
  describe.concurrent(`${c.key === "ip" ? "per-IP" : "per-token"} limit of ${c.procedure} (${c.max})`, () => {
    for (const variant of URL_VARIANTS) {
      it(`${variant.name}: counted under the same key as the plain path, or refused`, async () => {
        // 1. The plain path spends the quota; the variant must then be limited or refused.
        const first = await freshClient(c);
        for (let i = 0; i < c.max; i++) expect(await send(c, plain, first), `plain call ${i + 1}`).toBe("served");
        const afterPlain = await send(c, variant, first);
        expect(afterPlain, "the variant once the plain path is limited").not.toBe("served");

        // 2. The variant spends the quota from a fresh client: never more than `max` calls served,
        //    then it is limited, and so is the plain path (same key).
        const second = await freshClient(c);
        let served = 0;
        let outcome: Outcome = "served";
        for (let i = 0; i <= c.max && outcome === "served"; i++) {
          outcome = await send(c, variant, second);
          if (outcome === "served") served += variant.calls;
        }
        tally[variant.name] = { ...tally[variant.name], [c.procedure]: served > 0 ? "counted" : "refused" };
        expect(served, "calls served through the variant").toBeLessThanOrEqual(c.max);
        if (served > 0) {
          expect(outcome).toBe("limited");
          expect(await send(c, plain, second), "the plain path after the variant spent the quota").toBe("limited");
        } else {
          expect(outcome).toBe("refused");
        }
      });
    }
  });
}

describe("batch size", () => {
  const exportBatch = async (n: number) => {
    const cookie = await sessionCookie(h, (await createUser(h)).id);
    const started = Date.now();
    const target = `/trpc/${Array(n).fill("privacy.export").join(",")}?batch=1`;
    const mutation = procedures["privacy.export"]!._def.type === "mutation";
    const headers = { cookie, origin: TEST_ORIGIN, "content-type": "application/json" };
    const res = await rawExchange(server.url, mutation ? { method: "POST", target, headers, body: "{}" } : { target, headers });
    return { res, ms: Date.now() - started };
  };

  it(`refuses a batch of more than ${LIMITS.batchMaxCalls} calls with a 400 in Portuguese, before running any`, async () => {
    const { res, ms } = await exportBatch(330);
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body) as { error: { json: { message: string; data: { code: string; toast: { title: string } } } } };
    expect(body.error.json.message).toBe(accessMessages.batchTooLarge(LIMITS.batchMaxCalls));
    expect(body.error.json.data).toMatchObject({ code: "BAD_REQUEST", toast: { title: accessMessages.batchTooLarge(LIMITS.batchMaxCalls) } });
    tally["330 × privacy.export"] = { answer: `${res.status} in ${ms} ms, ${res.body.length} bytes` };
  });

  it(`serves a batch of exactly ${LIMITS.batchMaxCalls} calls`, async () => {
    const { res } = await exportBatch(LIMITS.batchMaxCalls);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toHaveLength(LIMITS.batchMaxCalls);
  });
});

describe("paths outside the router", () => {
  it("an API path in any spelling gets the JSON 404, never the web app; other pages get the web app", async () => {
    const apiTargets = ["/trpc/nada", `${server.url}/trpc/nada`, `${server.url}/api/nada`, `${server.url}/files/nada`, "/TRPC/nada", "//api/nada", "/%61pi/nada", "/api/nada#x"];
    for (const target of apiTargets) {
      const res = await rawExchange(server.url, { target });
      expect([res.status, res.headers["content-type"]], target).toEqual([404, expect.stringContaining("application/json")]);
    }
    const page = await rawExchange(server.url, { target: "/meus-dados" });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>Elo Escolar</title>");
  });
});
