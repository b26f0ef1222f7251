import { schema } from "@elo/db";
import type { ProfileType } from "@elo/shared";
import { hashPassword } from "../../../src/auth/password";
import type { Harness } from "../harness";

let counter = 0;
/** A unique e-mail for this test run. */
export const uniqueEmail = (prefix = "user") => `${prefix}.${process.pid}.${Date.now()}.${++counter}@teste.com.br`;

export const DEFAULT_PASSWORD = "Senha#Forte123";
let cachedHash: Promise<string> | null = null;
const defaultHash = () => (cachedHash ??= hashPassword(DEFAULT_PASSWORD));

export interface UserOptions {
  email?: string;
  password?: string;
  profileType?: ProfileType;
  admin?: boolean;
  /** Confirmed by default: most tests are about what a confirmed account may do. */
  emailConfirmed?: boolean;
  profile?: Partial<typeof schema.profiles.$inferInsert>;
}

/** Inserts a user with a profile (and roles); returns its id and e-mail. */
export async function createUser(h: Pick<Harness, "db">, opts: UserOptions = {}) {
  const email = (opts.email ?? uniqueEmail(opts.profileType ?? "parent")).toLowerCase();
  const passwordHash = opts.password ? await hashPassword(opts.password) : await defaultHash();
  const [user] = await h.db.insert(schema.users).values({ email, passwordHash, emailConfirmedAt: opts.emailConfirmed === false ? null : new Date() }).returning({ id: schema.users.id });
  await h.db.insert(schema.profiles).values({ userId: user!.id, profileType: opts.profileType ?? "parent", fullName: "Usuário de Teste", ...opts.profile });
  if (opts.admin) await h.db.insert(schema.userRoles).values({ userId: user!.id, role: "admin" });
  return { id: user!.id, email, password: opts.password ?? DEFAULT_PASSWORD };
}

export const createAdmin = (h: Pick<Harness, "db">, opts: UserOptions = {}) => createUser(h, { ...opts, admin: true });
