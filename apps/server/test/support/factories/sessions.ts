import { createSession } from "../../../src/auth/session";
import type { Harness } from "../harness";

/** The session cookie header for `userId` (cookie name of the test config). */
export async function sessionCookie(h: Harness, userId: string) {
  const { token } = await createSession(h.db, h.clock, userId);
  return `elo_session=${token}`;
}
