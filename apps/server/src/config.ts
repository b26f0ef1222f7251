import { z } from "zod";

const bool = z
  .enum(["0", "1", "true", "false"])
  .transform((v) => v === "1" || v === "true");

/**
 * Which proxies may set X-Forwarded-For (Fastify's trustProxy). Off by default: otherwise any client
 * could pick its own IP and escape the per-IP rate limits. Best: the proxy's addresses or CIDRs
 * (or proxy-addr's names loopback, linklocal, uniquelocal); `true` trusts anyone in front. Hop counts
 * are not offered: Fastify 5 ignores them (it cannot check the peer).
 */
const trustProxy = z
  .string()
  .trim()
  .regex(/^(0|1|true|false|((loopback|linklocal|uniquelocal|\d{1,3}(\.\d{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:.]*)(\/\d{1,3})?\s*(,\s*|$))+)$/, "use false, true, or the proxies' addresses (CIDR allowed, comma-separated)")
  .transform((v): boolean | string => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  DATA_DIR: z.string().min(1).default("./.data"),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default("Elo Escolar <nao-responda@eloescolar.com.br>"),
  ADMIN_EMAIL: z.email().default("contato@eloescolar.com.br"),
  DEMO: bool.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RATE_LIMIT: bool.default(true),
  SESSION_CACHE: bool.default(true),
  TRUST_PROXY: trustProxy.default(false),
  /** Requests per minute allowed to one API token (bearer requests on /trpc). */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(300),
  /** Redis shared by every server process for the rate-limit counters; absent, each process counts in memory. */
  REDIS_URL: z.url({ protocol: /^rediss?$/, hostname: /./, error: "use redis://[user:password@]host:port[/db] (or rediss:// for TLS)" }).optional(),
  WEB_DIST: z.string().optional(),
  // Object storage (S3-compatible); absent, uploads stay on the disk under DATA_DIR.
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "use an S3 bucket name: 3-63 lower-case letters, digits, dots and hyphens").optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** The endpoint as browsers reach it, when it differs from S3_ENDPOINT (a container name inside compose). */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  /** On SIGTERM: how long requests already received may take to be answered before the process exits anyway (code 1). */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  /** How often each process runs the scheduled jobs (voucher expiry, waitlist offers); 0 turns them off. */
  JOBS_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** How often each process looks for due webhook deliveries; 0 turns the sender off (tests drive it). */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(0).max(3_600_000).default(500),
  /** Bearer token that opens GET /metrics (Prometheus); absent, /metrics answers 404 (decision 180). */
  METRICS_TOKEN: z.string().trim().min(24, "use at least 24 characters (e.g. openssl rand -hex 24)").optional(),
});

/** The variables that configure object storage only together. */
const S3_REQUIRED = ["S3_ENDPOINT", "S3_REGION", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
const S3_OPTIONAL = ["S3_FORCE_PATH_STYLE", "S3_PUBLIC_ENDPOINT"] as const;

/** All S3_* variables or none: a half-configured bucket must stop the start-up, not fall back to the disk. */
function s3Issues(env: NodeJS.ProcessEnv): string[] {
  const given = [...S3_REQUIRED, ...S3_OPTIONAL].filter((name) => env[name] !== undefined);
  if (given.length === 0) return [];
  return S3_REQUIRED.filter((name) => env[name] === undefined).map(
    (name) => `  ${name}: missing; object storage needs ${S3_REQUIRED.join(", ")} together, or none of them (set: ${given.join(", ")})`,
  );
}

/** Where and how to reach the S3-compatible bucket. */
export interface S3Settings {
  endpoint: string;
  /** The origin browsers use for presigned links (S3_PUBLIC_ENDPOINT, else S3_ENDPOINT). */
  publicEndpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export type Config = z.infer<typeof schema> & {
  /** Canonical origin (scheme://host:port) used in links and the Origin check. */
  publicOrigin: string;
  /** Extra origins accepted by the Origin check (the Vite dev server in development). */
  allowedOrigins: string[];
  demo: boolean;
  isProduction: boolean;
  /** Object storage, when every S3_* variable is set; null keeps files on the disk. */
  s3: S3Settings | null;
};

/** Parses the environment once; throws an error naming every wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  const lines = [...(parsed.error?.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`) ?? []), ...s3Issues(env)];
  if (!parsed.success || lines.length) throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  const c = parsed.data;
  const isProduction = c.NODE_ENV === "production";
  // Demo logins have published passwords, so a production server refuses them instead of ignoring them quietly.
  if (isProduction && c.DEMO) {
    throw new Error("Invalid configuration:\n  DEMO: the demo world never runs with NODE_ENV=production; remove DEMO=1");
  }
  const publicOrigin = new URL(c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).origin;
  const allowedOrigins = [publicOrigin];
  if (!isProduction) allowedOrigins.push("http://localhost:5173", `http://127.0.0.1:${c.PORT}`, `http://localhost:${c.PORT}`);
  return {
    ...c,
    publicOrigin,
    allowedOrigins,
    isProduction,
    demo: !isProduction && (c.DEMO ?? !c.DATABASE_URL),
    s3: s3Settings(c),
  };
}

function s3Settings(c: z.infer<typeof schema>): S3Settings | null {
  const { S3_ENDPOINT: endpoint, S3_REGION: region, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = c;
  if (!endpoint || !region || !bucket || !accessKeyId || !secretAccessKey) return null;
  return { endpoint, publicEndpoint: c.S3_PUBLIC_ENDPOINT ?? endpoint, region, bucket, accessKeyId, secretAccessKey, forcePathStyle: c.S3_FORCE_PATH_STYLE ?? false };
}
