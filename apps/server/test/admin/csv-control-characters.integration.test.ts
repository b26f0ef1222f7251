import { csvMessages } from "@elo/shared";
import { describe, expect, it } from "vitest";
import { csvForm } from "../support/factories/admin";
import { sessionCookie } from "../support/factories/sessions";
import { createAdmin } from "../support/factories/users";
import { withServer, type Harness, type TestServer } from "../support/harness";
import { trpcMutation } from "../support/http-client";

/**
 * admin.csv.preview over HTTP, the file sent as multipart like the browser does: a NUL byte (which
 * PostgreSQL cannot hold in text) or another control character in a cell makes that row invalid
 * with a message naming the column; the other rows are previewed as usual.
 */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

type PreviewRow = { index: number; name: string; status: string; message: string; selectable: boolean };

async function preview(csv: string) {
  const cookie = await sessionCookie(h, (await createAdmin(h)).id);
  const res = await trpcMutation(server, "admin.csv.preview", csvForm(csv), cookie);
  return { status: res.status, rows: (res.body.result?.data as { rows: PreviewRow[] } | undefined)?.rows ?? [], error: res.body.error };
}

const CONTROL = ["\u0000", "\u0001", "\u0008", "\u000B", "\u001B", "\u007F"];
const COLUMNS = ["name", "categoria", "modalidade", "city", "uf", "neighborhood", "address", "phone", "whatsapp", "cep"] as const;

describe("control characters in CSV cells", () => {
  it.each(CONTROL.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, "0")}`, c]))("%s in the name makes that row invalid, not the file a 500", async (_label, c) => {
    const res = await preview(`name,city,uf\nEscola${c}Oculta,São Paulo,SP\nEscola Boa,São Paulo,SP\n`);
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(res.rows[0]).toMatchObject({ index: 1, status: "invalid", selectable: false });
    expect(res.rows[0]!.message).toContain(csvMessages.invalidCharacter("name"));
    expect(res.rows[1]).toMatchObject({ index: 2, status: "valid", selectable: true });
  });

  it.each(COLUMNS)("a NUL byte in the %s column is a row error", async (column) => {
    const cells = COLUMNS.map((c) => (c === column ? "x\u0000y" : c === "name" ? "Escola Coluna" : ""));
    const res = await preview(`${COLUMNS.join(",")}\n${cells.join(",")}\n`);
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(res.rows[0]).toMatchObject({ status: "invalid", selectable: false });
    expect(res.rows[0]!.message).toContain(csvMessages.invalidCharacter(column));
  });

  it("keeps tabs and line breaks inside a quoted cell (an address over two lines)", async () => {
    const res = await preview(`name,address\nEscola Quebra,"Rua A, 10\nFundos\tBloco B"\n`);
    expect(res.status).toBe(200);
    expect(res.rows[0]).toMatchObject({ status: "valid", selectable: true });
  });
});
