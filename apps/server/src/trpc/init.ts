/**
 * The one tRPC bootstrap file.
 * 1. Context  2. Initialisation (transformer, error formatting)  3. Procedures by role.
 */
import { accessMessages, emailConfirmationMessages } from "@elo/shared";
import { initTRPC } from "@trpc/server";
import { z, ZodError } from "zod";
import type { CookieJar } from "../auth/cookie";
import { staffSchool } from "../auth/school-staff";
import { DatabaseDownError, unlessDatabaseDown } from "../db/deadline";
import type { Session, SessionUser } from "../auth/session";
import type { AppDeps } from "../deps";
import type { StepTrace } from "../lib/step-trace";
import { AppError, isDatabaseUnavailable, routerRefusal, serviceUnavailable } from "./errors";
import { transformer } from "./transformer";

// ─── 1. Context ─────────────────────────────────────────────────────────────

export interface ContextOptions {
  deps: AppDeps;
  user: SessionUser | null;
  session: Session | null;
  cookies: CookieJar;
  userAgent?: string | null;
  /** Set when the request authenticated with an API token instead of a cookie. */
  apiTokenId?: string | null;
  /** Calls back once the HTTP answer has gone out; without HTTP (tests' callers) there is none to wait for. */
  onAnswered?: (callback: () => void) => void;
  /** At debug level: timestamps of the request's steps (lib/step-trace.ts). */
  trace?: StepTrace | null;
  /** Fastify's request id (`reqId` in the server's log); access-log rows carry it (issue 27). */
  requestId?: string | null;
}

/** The context without HTTP: tests call procedures through `createCaller(createContextInner(...))`. */
export function createContextInner(opts: ContextOptions) {
  return {
    ...opts.deps,
    user: opts.user,
    session: opts.session,
    cookies: opts.cookies,
    userAgent: opts.userAgent ?? null,
    apiTokenId: opts.apiTokenId ?? null,
    trace: opts.trace ?? null,
    requestId: opts.requestId ?? null,
    /**
     * Runs `task` after the answer was sent, so neither its time nor its failure reaches the
     * caller (failures are logged); `deps.background.settled()` waits for it.
     */
    afterAnswer(name: string, task: () => Promise<unknown>) {
      const start = () => opts.deps.background.run(name, task);
      if (opts.onAnswered) opts.onAnswered(start);
      else start();
    },
  };
}
export type Context = ReturnType<typeof createContextInner>;

// ─── 2. Initialisation ──────────────────────────────────────────────────────

/** What a procedure declares of itself beyond its input and output. */
export interface ProcedureMeta {
  /**
   * A mutation that never changes who its caller is (e-mail, confirmation, profile type, roles,
   * sessions): the caller's cached session stays (decision 220). Every other mutation drops it.
   */
  sessionUnchanged?: boolean;
}

const t = initTRPC.context<Context>().meta<ProcedureMeta>().create({
  transformer,
  // Live subscriptions (server-sent events): a ping every 15 s keeps proxies from closing an idle
  // stream, and the browser reconnects when it has heard nothing for 40 s.
  sse: { ping: { enabled: true, intervalMs: 15_000 }, client: { reconnectAfterInactivityMs: 40_000 } },
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const zod = cause instanceof ZodError ? z.flattenError(cause) : null;
    const refusal = routerRefusal(error, shape.data.path);
    const toast =
      error instanceof AppError
        ? error.toast
        : zod
          ? { title: accessMessages.validationTitle, description: cause instanceof ZodError ? cause.issues[0]?.message : undefined }
          : error.code === "INTERNAL_SERVER_ERROR"
            ? { title: accessMessages.unexpected }
            : { title: refusal ?? error.message };
    return {
      ...shape,
      message: error.code === "INTERNAL_SERVER_ERROR" ? accessMessages.unexpected : (refusal ?? shape.message),
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        toast,
        meta: error instanceof AppError ? error.meta : undefined,
        fieldErrors: zod?.fieldErrors ?? null,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/**
 * Turns "database unreachable" into a quick 503 instead of a 500, or instead of a hang (see
 * unlessDatabaseDown).
 */
const databaseAvailability = t.middleware(async ({ ctx, next, type, meta }) => {
  const result = type === "subscription" ? await next() : await unlessDatabaseDown(ctx.dbHandle, next()).catch((error: unknown) => {
    if (error instanceof DatabaseDownError) throw serviceUnavailable(error);
    throw error;
  });
  if (!result.ok && isDatabaseUnavailable(result.error.cause ?? result.error)) {
    throw serviceUnavailable(result.error);
  }
  // What a user changes of their own (profile type, e-mail, sign-out) is read again by their next
  // request here, without waiting for the notification (decision 220).
  if (type === "mutation" && ctx.user && !meta?.sessionUnchanged) ctx.sessionCache?.dropUser(ctx.user.id);
  return result;
});

// ─── 3. Procedures ──────────────────────────────────────────────────────────

export const publicProcedure = t.procedure.use(databaseAvailability);

/** A signed-in user; UNAUTHORIZED otherwise. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new AppError("UNAUTHORIZED", accessMessages.unauthenticated);
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/**
 * A signed-in user calling from the browser, not with a personal API token: for what destroys the
 * account or changes its credentials (deletion, token management), so a leaked token cannot do it.
 */
export const sessionOnlyProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.apiTokenId) throw new AppError("FORBIDDEN", { title: accessMessages.sessionRequiredTitle, description: accessMessages.sessionRequired });
  return next();
});

/** Role admin; FORBIDDEN otherwise. */
export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) throw new AppError("FORBIDDEN", accessMessages.adminOnly);
  return next();
});

/** A parent (profile_type parent); FORBIDDEN for institution users. */
export const parentProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.user.profileType !== "parent") throw new AppError("FORBIDDEN", accessMessages.forbidden);
  return next();
});

/**
 * Issue 21: a confirmed e-mail address is needed (claims, API tokens). PRECONDITION_FAILED with
 * `meta.reason = "email_unconfirmed"`, so the client can offer 'Reenviar e-mail'.
 */
const confirmedEmail = t.middleware(({ ctx, next }) => {
  if (ctx.user && !ctx.user.emailConfirmed) {
    throw new AppError("PRECONDITION_FAILED", { title: emailConfirmationMessages.requiredTitle, description: emailConfirmationMessages.requiredDescription }, { reason: "email_unconfirmed" });
  }
  return next();
});

/** A parent whose e-mail address is confirmed. */
export const confirmedParentProcedure = parentProcedure.use(confirmedEmail);

/** A browser session (no API token) whose e-mail is confirmed: creating an API token. */
export const confirmedSessionProcedure = sessionOnlyProcedure.use(confirmedEmail);

/** An institution user, whatever the state of their school membership. */
export const institutionProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.user.profileType !== "institution") throw new AppError("FORBIDDEN", accessMessages.forbidden);
  return next();
});

/** Approved staff of a school; adds `ctx.schoolId`. Pending or rejected members are refused. */
export const schoolStaffProcedure = institutionProcedure.use(async ({ ctx, next }) => {
  const staff = await staffSchool(ctx.db, ctx.user.id);
  if ("refusal" in staff) throw new AppError("FORBIDDEN", staff.refusal, { membership: staff.membership });
  return next({ ctx: { ...ctx, schoolId: staff.schoolId } });
});
