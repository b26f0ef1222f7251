import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";
import { concurrencyLimit } from "../lib/limiter";

/** OWASP's argon2id parameters: 19 MiB, 2 iterations, 1 lane. */
export const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Argon2 runs on libuv's threads; left alone, a burst of logins takes every core and the event loop
 * waits. At most cores - 1 hashes run at once, so one core always serves the other requests
 * (docs/decisions/085-argon2-concurrency.md).
 */
const argon2Slot = concurrencyLimit(Math.max(1, availableParallelism() - 1));

export const hashPassword = (password: string) => argon2Slot(() => hash(password, ARGON2_OPTIONS));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2Slot(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;
/** Spends the same time as a real check, so unknown e-mails cannot be told apart by timing. */
export async function verifyDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword("dummy-password-for-timing");
  await verifyPassword(await dummyHash, password);
}
