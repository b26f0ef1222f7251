import { describe, expect, it } from "vitest";
import { createEloClient, errorCode, errorMessage, isEloError, trpcEndpoint } from "../src/index.js";

/** A fetch that records the request and answers with a tRPC error body. */
function fakeFetch(status: number, body: unknown) {
  const calls: { url: string; headers: Headers }[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), headers: new Headers(init?.headers) });
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

describe("@elo/client", () => {
  it("accepts the server address with or without /trpc", () => {
    expect(trpcEndpoint("https://eloescolar.com.br")).toBe("https://eloescolar.com.br/trpc");
    expect(trpcEndpoint("https://eloescolar.com.br/trpc/")).toBe("https://eloescolar.com.br/trpc");
    expect(() => trpcEndpoint("eloescolar.com.br")).toThrow(TypeError);
    expect(() => createEloClient({ url: "http://x", token: " " })).toThrow(TypeError);
  });

  it("sends the token as a bearer header and decodes superjson dates", async () => {
    const when = new Date("2026-01-02T03:04:05Z");
    const { fetch, calls } = fakeFetch(200, { result: { data: { json: [{ createdAt: when.toISOString() }], meta: { values: { "0.createdAt": ["Date"] } } } } });
    const elo = createEloClient({ url: "http://x", token: "elo_abc", fetch });
    const list = (await elo.apiTokens.list.query()) as unknown as { createdAt: Date }[];
    expect(list[0]!.createdAt).toEqual(when);
    expect(calls[0]!.url.split("?")[0]).toBe("http://x/trpc/apiTokens.list");
    expect(calls[0]!.headers.get("authorization")).toBe("Bearer elo_abc");
  });

  it("exposes the error code and the Portuguese message", async () => {
    const toast = { title: "Erro ao revogar token", description: "Token não encontrado" };
    const { fetch } = fakeFetch(404, { error: { json: { message: "x", code: -32004, data: { code: "NOT_FOUND", httpStatus: 404, toast } } } });
    const elo = createEloClient({ url: "http://x", token: "elo_abc", fetch });
    const error = await elo.apiTokens.revoke.mutate({ id: "00000000-0000-4000-8000-000000000000" }).catch((e: unknown) => e);
    expect(isEloError(error)).toBe(true);
    expect(errorCode(error)).toBe("NOT_FOUND");
    expect(errorMessage(error)).toBe("Erro ao revogar token: Token não encontrado");
    if (isEloError(error)) expect(error.data?.toast.title).toBe(toast.title);
    expect(errorCode(new Error("rede"))).toBeUndefined();
    expect(errorMessage(new Error("rede"))).toBe("rede");
  });
});
