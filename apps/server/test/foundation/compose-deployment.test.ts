import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../../src/config";

/**
 * The several-server deployment (docker-compose.yml + deploy/Caddyfile, decision 136), read as files:
 * no Docker daemon is needed. `docker compose config` checks the file too where the compose plugin
 * is installed.
 */
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const composeFile = path.join(root, "docker-compose.yml");

interface Service {
  image?: string;
  build?: unknown;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }> | string[];
  ports?: string[];
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string } | null>;
  stop_grace_period?: string;
}
interface Compose {
  services: Record<string, Service>;
  networks?: { default?: { ipam?: { config?: { subnet: string }[] } } };
}

const compose = parse(readFileSync(composeFile, "utf8"), { merge: true }) as Compose;
const services = compose.services;
const byImage = (prefix: string) => Object.entries(services).filter(([, s]) => s.image?.startsWith(prefix));
const one = (prefix: string) => {
  const found = byImage(prefix);
  expect(found.map(([n]) => n), `one service with image ${prefix}*`).toHaveLength(1);
  return found[0]!;
};
const text = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(" ") : (v ?? ""));
const env = (s: Service) => Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)]));
/** The app replicas: the services built from the repository's Dockerfile. */
const apps = Object.entries(services).filter(([, s]) => s.build !== undefined);
const [proxyName, proxy] = byImage("caddy")[0] ?? [];
const caddyMount = proxy?.volumes?.map((v) => v.split(":")).find(([, inside]) => inside === "/etc/caddy/Caddyfile");
const caddyfile = caddyMount ? readFileSync(path.join(root, caddyMount[0]!), "utf8") : "";

/** The `{ ... }` block that follows `from` in a Caddyfile (braces balanced). */
function blockAfter(source: string, from: number): string {
  const open = source.indexOf("{", from);
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === "{") depth++;
    if (source[i] === "}" && --depth === 0) return source.slice(open + 1, i);
  }
  throw new Error("unbalanced braces in the Caddyfile");
}
/** Every `reverse_proxy` directive: its upstreams and its options block. */
const reverseProxies = [...caddyfile.matchAll(/^\s*reverse_proxy\s+([^{\n]+?)\s*(\{)?\s*$/gm)].map((m) => ({
  // A leading `@name` is a matcher, not an upstream.
  upstreams: m[1]!.split(/\s+/).filter((u) => !u.startsWith("@")),
  at: m.index!,
  options: m[2] ? blockAfter(caddyfile, m.index!) : "",
}));

describe("docker-compose.yml: a deployment of several servers", () => {
  it("names every part: PostgreSQL, MinIO and its bucket, Redis, two app replicas, a proxy", () => {
    one("postgres:");
    one("minio/minio");
    one("minio/mc");
    one("redis:");
    expect(apps.length).toBeGreaterThanOrEqual(2);
    expect(proxyName).toBeDefined();
  });

  it("creates the apps' bucket at start, and the apps wait for it, the database and Redis", () => {
    const [bucketJob, bucket] = one("minio/mc");
    const [minioName] = one("minio/minio");
    const [dbName] = one("postgres:");
    const [redisName] = one("redis:");
    const script = text(bucket.entrypoint) + text(bucket.command);
    for (const [, app] of apps) {
      expect(script).toContain(`mc mb --ignore-existing local/${env(app).S3_BUCKET}`);
      expect(script).toContain(`http://${minioName}:9000`);
      expect(app.depends_on).toMatchObject({
        [bucketJob]: { condition: "service_completed_successfully" },
        [dbName]: { condition: "service_healthy" },
        [redisName]: { condition: "service_healthy" },
      });
    }
  });

  it("gives every replica the same database, bucket and Redis, reached by their service names", () => {
    const shared = (name: string) => new Set(apps.map(([, s]) => env(s)[name]));
    const names = ["DATABASE_URL", "REDIS_URL", "S3_ENDPOINT", "S3_PUBLIC_ENDPOINT", "S3_REGION", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE", "PUBLIC_URL", "TRUST_PROXY"];
    for (const name of names) {
      expect(shared(name).size, `${name} is set, and the same on every replica`).toBe(1);
      expect([...shared(name)][0], name).toBeTruthy();
    }
    const e = env(apps[0]![1]);
    expect(new URL(e.DATABASE_URL!).hostname).toBe(one("postgres:")[0]);
    expect(new URL(e.REDIS_URL!).hostname).toBe(one("redis:")[0]);
    expect(new URL(e.S3_ENDPOINT!).hostname).toBe(one("minio/minio")[0]);
    // The replicas' environment passes the server's own start-up validation, S3 included.
    const config = loadConfig(e);
    expect(config.s3).toMatchObject({ bucket: e.S3_BUCKET, forcePathStyle: true });
    expect(config.isProduction).toBe(true);
  });

  it("trusts X-Forwarded-For from exactly the proxy, which alone publishes the app", () => {
    const address = proxy?.networks?.default?.ipv4_address;
    expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet ?? "";
    expect(address!.split(".").slice(0, 3).join(".")).toBe(subnet.split(".").slice(0, 3).join("."));
    for (const [name, app] of apps) {
      expect(loadConfig(env(app)).TRUST_PROXY, name).toBe(address);
      // A published replica port would let clients bypass the proxy (and its X-Forwarded-For).
      expect(app.ports ?? [], name).toEqual([]);
    }
    const publicUrl = new URL(env(apps[0]![1]).PUBLIC_URL!);
    expect(proxy?.ports).toContain(`${publicUrl.port}:80`);
  });

  it("gives a draining replica longer than its shutdown grace before Docker kills it", () => {
    for (const [name, app] of apps) {
      const grace = Number(env(app).SHUTDOWN_GRACE_MS ?? 15_000);
      const stop = /^(\d+)s$/.exec(app.stop_grace_period ?? "10s");
      expect(Number(stop?.[1]) * 1000, name).toBeGreaterThan(grace);
    }
  });
});

describe("deploy/Caddyfile: the proxy in front of the replicas", () => {
  it("is the file the proxy mounts", () => {
    expect(caddyMount, "the proxy mounts a Caddyfile from the repository").toBeDefined();
    expect(existsSync(path.join(root, caddyMount![0]!))).toBe(true);
  });

  it("balances over every ready replica (/readyz) and flushes live streams at once", () => {
    const expected = apps.map(([name, s]) => `${name}:${env(s).PORT}`);
    const toApps = reverseProxies.filter((r) => r.upstreams.some((u) => expected.includes(u)));
    const checked = toApps.filter((r) => /^\s*health_uri /m.test(r.options));
    expect(checked).toHaveLength(1);
    expect([...checked[0]!.upstreams].sort()).toEqual([...expected].sort());
    expect(checked[0]!.options).toMatch(/^\s*health_uri \/readyz\s*$/m);
    expect(checked[0]!.options).toMatch(/^\s*flush_interval -1\s*$/m);
  });

  it("with no replica ready, sends the request to any replica that answers rather than showing Caddy's 503 (decision 181)", () => {
    const expected = apps.map(([name, s]) => `${name}:${env(s).PORT}`);
    const at = caddyfile.search(/^\s*handle_errors\s*\{/m);
    expect(at).toBeGreaterThan(-1);
    const block = blockAfter(caddyfile, at);
    // Only Caddy's own "no upstream" errors (a replica's 503 is an answer, never an error here).
    expect(block).toMatch(/expression `\{http\.error\.status_code\} in \[502, 503\]`/);
    const fallback = reverseProxies.find((r) => r.at > at && r.at < at + block.length + 40);
    expect(fallback, "a reverse_proxy inside handle_errors").toBeDefined();
    expect([...fallback!.upstreams].sort()).toEqual([...expected].sort());
    expect(fallback!.options).not.toMatch(/health_uri/);
    expect(block).toMatch(/not path \/elo-files\/\*/);
  });

  it("has compose check each replica's readiness", () => {
    for (const [name, app] of apps) {
      expect(JSON.stringify((app as { healthcheck?: unknown }).healthcheck), name).toContain("/readyz");
    }
  });

  it("sends presigned file links (the bucket's path on the public origin) to MinIO", () => {
    const e = env(apps[0]![1]);
    expect(new URL(e.S3_PUBLIC_ENDPOINT!).origin).toBe(new URL(e.PUBLIC_URL!).origin);
    const at = caddyfile.search(new RegExp(`^\\s*handle /${e.S3_BUCKET}/\\*\\s*\\{`, "m"));
    expect(at).toBeGreaterThan(-1);
    expect(blockAfter(caddyfile, at)).toMatch(new RegExp(`reverse_proxy ${one("minio/minio")[0]}:9000\\s*$`, "m"));
  });
});

/** True when the command runs (a tool installed on this machine). */
const installed = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
/**
 * `docker compose` where its plugin is installed, else Debian's `docker-compose` (1.29, which
 * `.ci/run` installs): neither needs a daemon for `config`.
 */
const composeCli: [string, string[]] | undefined = installed("docker", ["compose", "version"])
  ? ["docker", ["compose"]]
  : installed("docker-compose", ["version"])
    ? ["docker-compose", []]
    : undefined;
const caddyCli = installed("caddy", ["version"]);

describe.skipIf(!composeCli)("docker compose config (needs the docker compose plugin)", () => {
  it("accepts the file and resolves both replicas", () => {
    const [command, prefix] = composeCli!;
    const out = execFileSync(command, [...prefix, "-f", composeFile, "config", "--services"], { cwd: root, encoding: "utf8" });
    expect(out.split("\n")).toEqual(expect.arrayContaining(apps.map(([name]) => name)));
  });
});

describe.skipIf(!caddyCli)("caddy validate (needs the caddy binary)", () => {
  it("accepts deploy/Caddyfile", () => {
    const out = execFileSync("caddy", ["validate", "--config", path.join(root, caddyMount![0]!), "--adapter", "caddyfile"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(out).toContain("Valid configuration");
  });
});
