import { describe, expect, it } from "vitest";
import { checkLogin, loginInput } from "../src";

const cases: Array<{ email: string; password: string }> = [
  { email: "maria@escola.com.br", password: "x" },
  { email: "  Maria.Silva@Escola.COM.br ", password: "Senha#2026" },
  { email: "maria@escola", password: "x" },
  { email: "maria..silva@escola.com", password: "x" },
  { email: ".maria@escola.com", password: "x" },
  { email: "maria@-escola.com", password: "x" },
  { email: "maria@escola.c", password: "x" },
  { email: "", password: "x" },
  { email: "maria@escola.com", password: "" },
  { email: "maria@escola.com", password: "a".repeat(1001) },
  { email: `${"a".repeat(250)}@e.com`, password: "x" },
  { email: "joão@escola.com", password: "x" },
  { email: "o'neil+tag@escola.com", password: "x" },
];

describe("checkLogin (the login form's zod-free check)", () => {
  it.each(cases)("agrees with loginInput on %o", (input) => {
    const ours = checkLogin(input);
    const zod = loginInput.safeParse(input);
    expect(ours.ok).toBe(zod.success);
    if (ours.ok && zod.success) expect(ours.data).toEqual(zod.data);
    if (!ours.ok && !zod.success) expect(ours.message).toBe(zod.error.issues[0]?.message);
  });
});
