import { randomUUID } from "node:crypto";
import { accessMessages, marketplaceMessages } from "@elo/shared";
import { describe, expect, it } from "vitest";
import { marketWorld } from "../support/factories/benefits";
import { sessionCookie } from "../support/factories/sessions";
import { withServer, type Harness, type TestServer } from "../support/harness";
import { trpcQuery } from "../support/http-client";

/**
 * marketplace.list over HTTP with cursors a client crafted: each is shaped like ours (passes the
 * input's base64url pattern) but names an impossible moment. A 400 with the catalogue's Portuguese
 * text, never a 500 from the database's timestamptz cast.
 */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const crafted = (text: string) => Buffer.from(text).toString("base64url");
const id = randomUUID();

const CRAFTED = [
  `1|2024-02-30T00:00:00Z|${id}`,
  `0|2023-02-29T12:00:00.5+00:00|${id}`,
  `0|2024-13-01T00:00:00Z|${id}`,
  `0|2024-00-10T00:00:00Z|${id}`,
  `0|0000-01-01T00:00:00Z|${id}`,
  `1|2024-01-01T24:00:00Z|${id}`,
  `1|2024-01-01T23:60:00Z|${id}`,
  `1|2024-01-01T23:59:61Z|${id}`,
  `1|2024-01-01T12:00:00+99|${id}`,
  `1|2024-01-01T12:00:00-16:00|${id}`,
  `1|2024-01-01T12:00:00+03:75|${id}`,
  `1|2024-01-01T12:00:00Z|${id.replace(/-/g, "")}`,
  `1|2024-01-01T12:00:00Z|${id}|extra`,
  `2|2024-01-01T12:00:00Z|${id}`,
];

describe("marketplace.list cursor over HTTP", () => {
  it.each(CRAFTED)("refuses %s with 400 and a Portuguese message", async (text) => {
    const { parent } = await marketWorld(h);
    const res = await trpcQuery(server, "marketplace.list", { cursor: crafted(text) }, await sessionCookie(h, parent.id));
    expect(res.status).toBe(400);
    expect(res.body.error?.data.toast).toEqual({ title: accessMessages.validationTitle, description: marketplaceMessages.invalidCursor });
  });

  it("still follows a cursor it made, including one whose moment has an offset and microseconds", async () => {
    const { parent } = await marketWorld(h);
    const cookie = await sessionCookie(h, parent.id);
    const ours = await trpcQuery(server, "marketplace.list", { cursor: crafted(`1|2024-02-29T23:59:59.123456-03:00|${id}`) }, cookie);
    expect(ours.status).toBe(200);
    const first = await trpcQuery(server, "marketplace.list", { limit: 1 }, cookie);
    expect(first.status).toBe(200);
  });
});
