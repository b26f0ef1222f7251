import { z } from "zod";

const bool = z
  .enum(["0", "1", "true", "false"])
  .transform((v) => v === "1" || v === "true");

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
  /** Requests per minute allowed to one API token (bearer requests on /trpc). */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(300),
  WEB_DIST: z.string().optional(),
});

export type Config = z.infer<typeof schema> & {
  /** Canonical origin (scheme://host:port) used in links and the Origin check. */
  publicOrigin: string;
  /** Extra origins accepted by the Origin check (the Vite dev server in development). */
  allowedOrigins: string[];
  demo: boolean;
  isProduction: boolean;
};

/** Parses the environment once; throws an error naming every wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  const isProduction = c.NODE_ENV === "production";
  const publicOrigin = new URL(c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).origin;
  const allowedOrigins = [publicOrigin];
  if (!isProduction) allowedOrigins.push("http://localhost:5173", `http://127.0.0.1:${c.PORT}`, `http://localhost:${c.PORT}`);
  return {
    ...c,
    publicOrigin,
    allowedOrigins,
    isProduction,
    demo: c.DEMO ?? (!isProduction && !c.DATABASE_URL),
  };
}
