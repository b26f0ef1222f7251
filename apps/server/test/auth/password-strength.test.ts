import { describe, expect, it } from "vitest";
import { isWeakPassword } from "../../src/auth/password-strength";

describe("isWeakPassword", () => {
  it.each(["123456", "senha123", "password", "qwerty123", "abcdef", "brasil", "1234567890", "aaaaaa"])("refuses %s", (pw) => {
    expect(isWeakPassword(pw)).toBe(true);
  });

  it.each(["EloDemo#2025", "Senha#Forte123", "Girassol-Azul-42", "t7#Kq9!mZ2"])("accepts %s", (pw) => {
    expect(isWeakPassword(pw)).toBe(false);
  });

  it("refuses a password made from the user's own e-mail", () => {
    expect(isWeakPassword("souzamariana", ["mariana.souza@teste.com.br"])).toBe(true);
  });
});
