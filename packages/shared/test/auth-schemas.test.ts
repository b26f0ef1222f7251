import { describe, expect, it } from "vitest";
import { LIMITS, loginInput, signupInput } from "../src/index";

const firstMessage = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  r.error?.issues.find((i) => i.path[0] === field)?.message;

const signup = {
  profileType: "parent",
  fullName: "Maria Oliveira",
  email: "maria@example.com.br",
  password: "Girassol-Azul-42",
  stateId: 1,
  cityId: 1,
  neighborhoodId: 1,
  termsAccepted: true,
  dataProcessingConsent: true,
};

describe("auth schemas' messages", () => {
  it("a full name over 100 characters gets its own message, an empty one the required message", () => {
    expect(signupInput.safeParse({ ...signup, fullName: "a".repeat(100) }).success).toBe(true);
    expect(firstMessage(signupInput.safeParse({ ...signup, fullName: "a".repeat(101) }), "fullName")).toBe("Nome deve ter no máximo 100 caracteres");
    expect(firstMessage(signupInput.safeParse({ ...signup, fullName: "   " }), "fullName")).toBe("Nome é obrigatório");
  });

  it("the login password's maximum is the one its message states", () => {
    expect(LIMITS.passwordMax).toBe(100);
    expect(loginInput.safeParse({ email: "a@b.com.br", password: "x".repeat(100) }).success).toBe(true);
    const tooLong = loginInput.safeParse({ email: "a@b.com.br", password: "x".repeat(101) });
    expect(firstMessage(tooLong, "password")).toBe("Senha deve ter no máximo 100 caracteres");
    expect(firstMessage(loginInput.safeParse({ email: "a@b.com.br", password: "" }), "password")).toBe("Senha é obrigatória");
  });
});
