import { authMessages } from "@elo/shared";
import type { CreateFastifyContextOptions } from "@trpc/server/adapters/fastify";
import type { FastifyReply, FastifyRequest } from "fastify";
import { authenticateApiToken, bearerToken } from "../auth/api-token";
import { sessionCookieName, type CookieJar } from "../auth/cookie";
import { validateSessionToken } from "../auth/session";
import type { AppDeps } from "../deps";
import { DatabaseDownError, unlessDatabaseDown } from "../db/deadline";
import { stepTrace } from "../lib/step-trace";
import { AppError, isDatabaseUnavailable, serviceUnavailable } from "../trpc/errors";
import { createContextInner } from "../trpc/init";

/** Cookies read from the request and written to the reply with the session cookie's attributes. */
export function replyCookieJar(deps: AppDeps, req: FastifyRequest, res: FastifyReply): CookieJar {
  const secure = deps.config.isProduction;
  return {
    get: (name) => req.cookies[name],
    set: (name, value, expires) => res.setCookie(name, value, { httpOnly: true, sameSite: "lax", secure, path: "/", expires }),
    clear: (name) => res.clearCookie(name, { httpOnly: true, sameSite: "lax", secure, path: "/" }),
  };
}

/**
 * Who is calling: the session cookie's user, or nobody. With `cookies`, the browser's cookie follows
 * the database: re-sent with the new expiry when the session slid forward (else it would die at the
 * login's 30 days while the session lives on), cleared when the token is unknown or expired.
 */
export async function authenticate(deps: AppDeps, req: FastifyRequest, cookies?: CookieJar) {
  const name = sessionCookieName(deps.config);
  const token = req.cookies[name];
  if (!token) return { user: null, session: null };
  const result = token.length > 200 ? null : await validateSessionToken(deps.db, deps.clock, token, deps.sessionCache);
  if (!result) {
    cookies?.clear(name);
    return { user: null, session: null };
  }
  if (result.extended) cookies?.set(name, token, result.session.expiresAt);
  return { user: result.user, session: result.session };
}

export function contextFactory(deps: AppDeps) {
  const build = buildContext(deps);
  const cookieName = sessionCookieName(deps.config);
  return (opts: CreateFastifyContextOptions) => {
    // A visitor (no cookie, no token) needs no database to be known, nor a promise.
    if (opts.req.cookies[cookieName] === undefined && opts.req.headers.authorization === undefined) return visitorContext(deps, opts);
    // Reading the session needs the database: when it is down, answer 503 like the procedures do.
    return unlessDatabaseDown(deps.dbHandle, build(opts)).catch((error: unknown) => {
      if (error instanceof DatabaseDownError || isDatabaseUnavailable(error)) {
        throw serviceUnavailable(error);
      }
      throw error;
    });
  };
}

/** What every context holds apart from who is calling; at debug level, a trace of the request's steps. */
function commonContext(deps: AppDeps, req: FastifyRequest, res: FastifyReply) {
  const onAnswered = (callback: () => void) => void res.raw.once("close", callback);
  const trace = tracing(deps) ? stepTrace(res.elapsedTime, onAnswered, (steps) => deps.logger.debug({ url: req.url, steps }, "request steps")) : null;
  trace?.mark("context");
  return { deps, cookies: replyCookieJar(deps, req, res), userAgent: req.headers["user-agent"] ?? null, onAnswered, trace, requestId: req.id };
}

const tracing = (deps: AppDeps) => deps.logger.level === "debug" || deps.logger.level === "trace";

function visitorContext(deps: AppDeps, { req, res }: CreateFastifyContextOptions) {
  return createContextInner({ ...commonContext(deps, req, res), user: null, session: null });
}

function buildContext(deps: AppDeps) {
  return async ({ req, res }: CreateFastifyContextOptions) => {
    const common = commonContext(deps, req, res);
    const cookies = common.cookies;
    // A bearer token, when sent, decides who is calling (even next to a cookie); a bad one is
    // refused outright rather than silently treated as anonymous.
    const bearer = bearerToken(req.headers.authorization);
    if (bearer !== undefined) {
      const auth = await authenticateApiToken(deps.db, deps.clock, bearer);
      if (!auth) throw new AppError("UNAUTHORIZED", authMessages.invalidToken);
      return createContextInner({ ...common, user: auth.user, session: null, apiTokenId: auth.tokenId });
    }
    const { user, session } = await authenticate(deps, req, cookies);
    return createContextInner({ ...common, user, session });
  };
}
