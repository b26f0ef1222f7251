import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { initTRPC } from "@trpc/server";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { registerTrpcRoute } from "../../src/http/trpc-route";
import { NodeHeaders } from "../../src/http/trpc-request";
import { eventually } from "../support/eventually";

/**
 * The request the app's tRPC mount hands to tRPC (decision 221): a plain object for GET/HEAD and
 * JSON bodies, the adapter's `Request` otherwise. Through a listening server, with real bytes.
 */
const t = initTRPC.context<{ accept: string | string[] | null }>().create();
let aborted = false;
const router = t.router({
  echo: t.procedure.input(z.object({ text: z.string() })).mutation(({ input }) => ({ text: input.text })),
  header: t.procedure.query(({ ctx }) => ctx.accept),
  form: t.procedure.input(z.instanceof(FormData)).mutation(({ input }) => ({ name: input.get("name") })),
  hang: t.procedure.query(
    ({ signal }) =>
      new Promise<string>((resolve) => {
        signal?.addEventListener("abort", () => {
          aborted = true;
          resolve("aborted");
        });
      }),
  ),
});

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = Fastify();
  await registerTrpcRoute(app, { prefix: "/trpc", router, createContext: ({ req }) => ({ accept: req.headers["x-probe"] ?? null }) });
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

const postJson = (path: string, body: string | Buffer) => fetch(`${base}/trpc/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });

describe("the tRPC mount's request", () => {
  it("reads a JSON body once, as tRPC's adapter does", async () => {
    const res = await postJson("echo", JSON.stringify({ text: "olá, ação" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { data: { text: "olá, ação" } } });
  });

  it("skips a byte-order mark before the JSON, as Request.json() does", async () => {
    const res = await postJson("echo", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ text: "bom" }))]));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { data: { text: "bom" } } });
  });

  it("answers malformed and empty JSON with tRPC's 400, not a 500", async () => {
    for (const body of ["{bad", ""]) {
      const res = await postJson("echo", body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { data: { code: string } } }).error.data.code).toBe("BAD_REQUEST");
    }
  });

  it("gives tRPC the request's headers and batches as before", async () => {
    const res = await fetch(`${base}/trpc/header,header?batch=1`, { headers: { "X-Probe": "sim" } });
    expect(await res.json()).toEqual([{ result: { data: "sim" } }, { result: { data: "sim" } }]);
  });

  it("hands a multipart body to tRPC as form data (the adapter's Request)", async () => {
    const form = new FormData();
    form.set("name", "Escola Árvore");
    const res = await fetch(`${base}/trpc/form`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { data: { name: "Escola Árvore" } } });
  });

  it("aborts the procedure's signal when the client goes away before its answer", async () => {
    aborted = false;
    const req = httpRequest(`${base}/trpc/hang`);
    req.on("error", () => {});
    req.end();
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    await eventually(async () => expect(aborted).toBe(true));
  });
});

describe("NodeHeaders", () => {
  it("reads Node's lower-case headers by any case, arrays joined as Headers does", () => {
    const h = new NodeHeaders({ "content-type": "application/json", "x-many": ["a", "b"] });
    expect(h.get("Content-Type")).toBe("application/json");
    expect(h.get("X-MANY")).toBe("a, b");
    expect(h.get("absent")).toBeNull();
    expect(h.has("content-TYPE")).toBe(true);
    expect(h.has("absent")).toBe(false);
  });
});
