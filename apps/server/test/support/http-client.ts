import superjson from "superjson";
import { TEST_ORIGIN, type TestServer } from "./harness";

/** The JSON a tRPC error carries over HTTP (the app's error formatter). */
export interface TrpcErrorBody {
  error: { message: string; data: { code: string; httpStatus: number; toast: { title: string; description?: string }; fieldErrors: Record<string, string[]> | null } };
}

/** What a tRPC call answered over the wire: the status and the body, superjson decoded. */
export interface TrpcAnswer {
  status: number;
  body: { result?: { data: unknown } } & Partial<TrpcErrorBody>;
}

async function answer(res: Response): Promise<TrpcAnswer> {
  const raw = (await res.json()) as { result?: { data: Parameters<typeof superjson.deserialize>[0] }; error?: Parameters<typeof superjson.deserialize>[0] };
  const body: TrpcAnswer["body"] = {};
  if (raw.result) body.result = { data: superjson.deserialize(raw.result.data) };
  if (raw.error) body.error = superjson.deserialize(raw.error);
  return { status: res.status, body };
}

const wire = (input: unknown) => JSON.stringify(superjson.serialize(input));

/** A query as the browser sends it: GET /trpc/<path>?input=<json>, with the session cookie. */
export async function trpcQuery(server: TestServer, path: string, input: unknown, cookie?: string): Promise<TrpcAnswer> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(wire(input))}`;
  return answer(await fetch(`${server.url}/trpc/${path}${query}`, { headers: cookie ? { cookie } : {} }));
}

/** A mutation as the browser sends it: POST /trpc/<path> with a JSON body, or a FormData as multipart. */
export async function trpcMutation(server: TestServer, path: string, input: unknown, cookie?: string): Promise<TrpcAnswer> {
  const headers: Record<string, string> = { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) };
  if (input instanceof FormData) return answer(await fetch(`${server.url}/trpc/${path}`, { method: "POST", headers, body: input }));
  return answer(await fetch(`${server.url}/trpc/${path}`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: wire(input) }));
}

/** A multipart upload as the browser sends it to an /api/uploads route; the JSON answer. */
export async function postUpload(server: TestServer, route: string, cookie: string | null, form: FormData) {
  const res = await fetch(`${server.url}${route}`, { method: "POST", headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** GET of a file address (relative, as the API hands it out): status, headers and the bytes served. */
export async function getFile(server: TestServer, address: string) {
  const res = await fetch(`${server.url}${address}`);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
