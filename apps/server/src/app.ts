import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LIMITS } from "@elo/shared";
import fastifyCookie from "@fastify/cookie";
import fastifyStatic from "@fastify/static";
import Fastify, { LogController } from "fastify";
import type { AppDeps } from "./deps";
import { contextFactory } from "./http/context";
import { answerFrameworkError, registerErrorHandler } from "./http/error-handler";
import { registerFileRoutes } from "./http/files";
import { registerHealthRoutes } from "./http/health";
import { registerMetrics } from "./http/metrics-route";
import { registerGracefulClose } from "./http/shutdown";
import { registerOriginCheck } from "./http/origin";
import { LazyChildLogger } from "./http/request-logger";
import { registerRateLimits } from "./http/rate-limit";
import { comparablePath, TRPC_PREFIX } from "./http/routed";
import { registerSecurityHeaders, securityHeaders } from "./http/security-headers";
import { registerTrpcRoute } from "./http/trpc-route";
import { registerMultipart } from "./http/uploads";
import { registerProfileUploads } from "./routers/profile/uploads";
import { registerSchoolUploads } from "./routers/school/logo-upload";
import { appRouter, type AppRouter } from "./routers/_app";
import { PRERENDERED_DIR, registerLandingPages } from "./public-pages/landing";
import { registerPublicPages } from "./public-pages/routes";

/** Requests slower than this are logged in production (every request is, elsewhere). */
const SLOW_REQUEST_MS = 1000;

/** apps/web/dist, found from src/ (dev) and dist/ (built) alike. */
const defaultWebDist = fileURLToPath(new URL("../../web/dist/", import.meta.url));

/** Builds the HTTP app: plugins, /trpc, file routes, the health probes (/livez, /readyz, /healthz), /metrics and the built web app. */
export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    loggerInstance: deps.logger,
    routerOptions: { maxParamLength: 5000 },
    // A path Fastify cannot route at all (bad percent-encoding, an over-long segment): decision 225's answers.
    frameworkErrors: answerFrameworkError(securityHeaders(deps.config)),
    bodyLimit: 1024 * 1024,
    trustProxy: deps.config.TRUST_PROXY,
    // Graceful close answers requests itself (http/shutdown.ts): Fastify's 503 would refuse some received before SIGTERM.
    return503OnClosing: false,
    // Unique across processes and restarts: access-log rows carry it to join the server's log (issue 27).
    genReqId: () => randomUUID(),
    // Two log lines per request were the largest framework cost in production (decision 088):
    // there only server errors and slow requests are logged, by the hook below.
    logController: new LogController({ disableRequestLogging: deps.config.isProduction }),
    // Most requests never log in production: their logger is made when first used (decision 150).
    ...(deps.config.isProduction ? { childLoggerFactory: (logger, bindings, options) => new LazyChildLogger(logger, bindings, options) } : {}),
  });
  if (deps.config.isProduction) {
    app.addHook("onResponse", (req, reply, done) => {
      const ms = reply.elapsedTime;
      if (reply.statusCode >= 500 || ms >= SLOW_REQUEST_MS) {
        req.log.warn({ method: req.method, url: req.url, statusCode: reply.statusCode, ms: Math.round(ms) }, "slow or failed request");
      }
      done();
    });
  }

  // Work deferred past its answer (ctx.afterAnswer) ends before the database is closed.
  app.addHook("onClose", () => deps.background.settled());
  // A session once read is kept while LISTEN tells this process of its changes (decision 220).
  const sessions = deps.sessionCache;
  if (sessions) {
    await sessions.listen(deps.dbHandle, deps.logger);
    app.addHook("onClose", () => sessions.close());
  }
  registerErrorHandler(app);
  await app.register(fastifyCookie);
  registerSecurityHeaders(app, deps.config);
  registerOriginCheck(app, deps.config);
  const closing = registerGracefulClose(app);
  registerMetrics(app, deps, appRouter);
  await registerRateLimits(app, deps.config, deps.sharedLimits);

  registerHealthRoutes(app, deps, closing);

  await registerTrpcRoute<AppRouter>(app, {
    prefix: TRPC_PREFIX,
    router: appRouter,
    // One request of hundreds of calls held the server for seconds (issue 15): a 400 beyond this.
    maxBatchSize: LIMITS.batchMaxCalls,
    createContext: contextFactory(deps),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") deps.logger.error({ err: error.cause ?? error, path }, "procedure failed");
    },
  });

  registerFileRoutes(app, deps);
  // The upload routes in a scope of their own, with their multipart parser: @fastify/multipart's
  // hooks (two promises and a 'close' listener per request) then run for uploads only (decision 150).
  await app.register(async (uploads) => {
    await registerMultipart(uploads);
    registerProfileUploads(uploads, deps);
    registerSchoolUploads(uploads, deps);
  });

  const webDist = deps.config.WEB_DIST ? path.resolve(deps.config.WEB_DIST) : defaultWebDist;
  const webBuilt = existsSync(path.join(webDist, "index.html"));
  const spaPaths = webBuilt ? readSpaPaths(webDist, deps) : new Set<string>();
  const publicPages = await registerPublicPages(app, deps, spaPaths);
  if (webBuilt) {
    registerLandingPages(app, webDist, deps.config.publicOrigin);
    const assetsDir = path.join(webDist, "assets") + path.sep;
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: "/",
      wildcard: false,
      index: false,
      preCompressed: true,
      // The rendered landing pages are served with the origin filled in (registerLandingPages), not as files.
      allowedPath: (pathName) => !pathName.startsWith(`/${PRERENDERED_DIR}/`),
      // Hashed assets are immutable; index.html (any other path of the app) must be revalidated.
      setHeaders: (reply, filePath) => {
        reply.header("cache-control", filePath.startsWith(assetsDir) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  } else {
    deps.logger.warn({ webDist }, "web app not built: only the API and the public pages are served");
  }
  app.setNotFoundHandler((req, reply) => {
    const path = comparablePath(req.url);
    if ((req.method !== "GET" && req.method !== "HEAD") || path.startsWith(TRPC_PREFIX) || path.startsWith("/files/") || path.startsWith("/api/")) {
      return reply.code(404).send({ error: "Não encontrado" });
    }
    // Only the web app's own routes answer 200 with its shell; any other path is a real 404 page
    // (decision 160). Without the list (a web build older than it), every path is the app's, as before.
    if (webBuilt && (spaPaths.has(path.replace(/\/+$/, "") || "/") || spaPaths.has("*"))) return reply.sendFile("index.html");
    return publicPages.notFound(req, reply);
  });

  return app;
}

/**
 * The web app's page paths, written by its build from the route tree (apps/web/scripts/spa-routes.mjs)
 * beside index.html, lower-case as comparablePath gives them. A build without the file serves the shell
 * on every path (the set holds "*").
 */
function readSpaPaths(webDist: string, deps: AppDeps): Set<string> {
  try {
    const paths = JSON.parse(readFileSync(path.join(webDist, "spa-routes.json"), "utf8")) as string[];
    return new Set(paths.map((p) => p.toLowerCase()));
  } catch {
    deps.logger.warn({ webDist }, "web build has no spa-routes.json: every unknown path answers with the web app");
    return new Set(["*"]);
  }
}
