import { accessMessages, authMessages, emailConfirmationMessages, profileMessages, type Toast } from "@elo/shared";
import * as init from "../../trpc/init";

export interface AccessRule {
  /** Who may call, in the reference's words. */
  who: string;
  /** Errors the procedure builder itself raises, before the handler runs. */
  errors: { code: string; toast: Toast | string; when: string }[];
}

const unconfirmed = {
  code: "PRECONDITION_FAILED",
  toast: { title: emailConfirmationMessages.requiredTitle, description: emailConfirmationMessages.requiredDescription },
  when: "the caller's e-mail address is not confirmed yet (`meta.reason` `email_unconfirmed`)",
};

const unauthenticated = [
  { code: "UNAUTHORIZED", toast: accessMessages.unauthenticated, when: "no session and no token" },
  { code: "UNAUTHORIZED", toast: authMessages.invalidToken, when: "malformed, unknown, revoked or expired token" },
];

/**
 * Who may call procedures built on each exported procedure builder of `trpc/init.ts`. The docs
 * script refuses to run when a builder is missing here, so a new role cannot go undocumented.
 */
export const ACCESS: Record<string, AccessRule> = {
  publicProcedure: {
    who: "Anyone, with or without a token.",
    errors: [{ code: "UNAUTHORIZED", toast: authMessages.invalidToken, when: "a token is sent but is malformed, unknown, revoked or expired" }],
  },
  protectedProcedure: { who: "Any signed-in user (session or API token).", errors: unauthenticated },
  sessionOnlyProcedure: {
    who: "A signed-in user in the browser (session cookie); never with an API token.",
    errors: [
      ...unauthenticated,
      { code: "FORBIDDEN", toast: { title: accessMessages.sessionRequiredTitle, description: accessMessages.sessionRequired }, when: "the call is made with an API token" },
    ],
  },
  adminProcedure: {
    who: "Administrators (role `admin`).",
    errors: [...unauthenticated, { code: "FORBIDDEN", toast: accessMessages.adminOnly, when: "the caller is not an administrator" }],
  },
  parentProcedure: {
    who: "Parents (profile type `parent`).",
    errors: [...unauthenticated, { code: "FORBIDDEN", toast: accessMessages.forbidden, when: "the caller is not a parent" }],
  },
  confirmedSessionProcedure: {
    who: "A signed-in user in the browser (session cookie; never with an API token) whose e-mail address is confirmed.",
    errors: [
      ...unauthenticated,
      { code: "FORBIDDEN", toast: { title: accessMessages.sessionRequiredTitle, description: accessMessages.sessionRequired }, when: "the call is made with an API token" },
      unconfirmed,
    ],
  },
  confirmedParentProcedure: {
    who: "Parents (profile type `parent`) whose e-mail address is confirmed.",
    errors: [...unauthenticated, { code: "FORBIDDEN", toast: accessMessages.forbidden, when: "the caller is not a parent" }, unconfirmed],
  },
  institutionProcedure: {
    who: "Institution users (profile type `institution`), whatever the state of their school membership.",
    errors: [...unauthenticated, { code: "FORBIDDEN", toast: accessMessages.forbidden, when: "the caller is not an institution user" }],
  },
  schoolStaffProcedure: {
    who: "Approved staff of a school; the procedure acts on that school only.",
    errors: [
      ...unauthenticated,
      { code: "FORBIDDEN", toast: accessMessages.forbidden, when: "the caller is not an institution user" },
      { code: "FORBIDDEN", toast: { title: profileMessages.membershipPending, description: profileMessages.membershipPendingDescription }, when: "the membership request is still pending" },
      { code: "FORBIDDEN", toast: profileMessages.membershipRequired, when: "the caller is not staff of any school" },
    ],
  },
};

type Builder = { _def: { middlewares: unknown[] } };
const isBuilder = (v: unknown): v is Builder =>
  (typeof v === "object" || typeof v === "function") && v !== null && Array.isArray((v as Builder)._def?.middlewares) && !("type" in (v as { _def: object })._def);

/** Every procedure builder exported by init.ts, each with its access rule (throws when one is missing). */
export function procedureBuilders() {
  const builders = (Object.entries(init) as [string, unknown][]).filter((e): e is [string, Builder] => isBuilder(e[1]));
  const missing = builders.map(([name]) => name).filter((name) => !ACCESS[name]);
  if (missing.length) throw new Error(`Describe these procedure builders in cli/api-docs/access.ts: ${missing.join(", ")}`);
  return builders.map(([name, b]) => ({ name, middlewares: b._def.middlewares, rule: ACCESS[name]! }));
}

/** The builder a procedure was made from: the one whose middleware chain is its longest prefix. */
export function accessOf(procedureMiddlewares: unknown[], builders: ReturnType<typeof procedureBuilders>) {
  let best: (typeof builders)[number] | undefined;
  for (const b of builders) {
    const isPrefix = b.middlewares.length <= procedureMiddlewares.length && b.middlewares.every((m, i) => procedureMiddlewares[i] === m);
    if (isPrefix && (!best || b.middlewares.length > best.middlewares.length)) best = b;
  }
  return best;
}
