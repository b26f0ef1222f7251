import { LIMITS } from "./constants";
import { authMessages } from "./messages/auth";

/** zod 4's default e-mail pattern, the one `loginInput` applies on the server. */
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * The login form's own check, the same rules and messages as `loginInput` without zod: the login
 * page must not carry zod in its first load (decision 082). The server still parses `loginInput`.
 */
export function checkLogin(input: { email: string; password: string }): { ok: true; data: { email: string; password: string } } | { ok: false; message: string } {
  const email = input.email.trim().toLowerCase();
  if (email.length > LIMITS.emailMax || !EMAIL.test(email)) return { ok: false, message: authMessages.emailInvalid };
  if (input.password.length < 1) return { ok: false, message: authMessages.passwordRequired };
  if (input.password.length > 1000) return { ok: false, message: authMessages.passwordMax };
  return { ok: true, data: { email, password: input.password } };
}
