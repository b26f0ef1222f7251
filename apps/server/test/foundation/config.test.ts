import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";

describe("loadConfig", () => {
  it("never turns the demo world on in production", () => {
    expect(loadConfig({ NODE_ENV: "production" }).demo).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", DEMO: "0" }).demo).toBe(false);
  });

  it("refuses DEMO=1 in production with a message naming DEMO", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DEMO: "1" })).toThrow(/DEMO: .*production/);
    expect(() => loadConfig({ NODE_ENV: "production", DEMO: "true" })).toThrow(/DEMO/);
  });

  it("runs the demo world by default only on the embedded database outside production", () => {
    expect(loadConfig({ NODE_ENV: "development" }).demo).toBe(true);
    expect(loadConfig({ NODE_ENV: "development", DEMO: "0" }).demo).toBe(false);
    expect(loadConfig({ NODE_ENV: "development", DATABASE_URL: "postgres://u@h:5432/d" }).demo).toBe(false);
    expect(loadConfig({ NODE_ENV: "development", DATABASE_URL: "postgres://u@h:5432/d", DEMO: "1" }).demo).toBe(true);
  });

  it("stops on a bad PORT with a message naming PORT", () => {
    expect(() => loadConfig({ PORT: "abc" })).toThrow(/^Invalid configuration:\n\s+PORT: /m);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
  });

  it("names every wrong variable at once", () => {
    let message = "";
    try {
      loadConfig({ PORT: "-1", DATABASE_URL: "not a url" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/DATABASE_URL/);
  });
});

describe("TRUST_PROXY", () => {
  it("is off by default, in production too", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ NODE_ENV: "production" }).TRUST_PROXY).toBe(false);
  });

  it("takes proxy addresses, true or false", () => {
    expect(loadConfig({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "loopback" }).TRUST_PROXY).toBe("loopback");
    expect(loadConfig({ TRUST_PROXY: "::1,fd00::/8" }).TRUST_PROXY).toBe("::1,fd00::/8");
    expect(loadConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).TRUST_PROXY).toBe("10.0.0.0/8, 127.0.0.1");
    expect(() => loadConfig({ TRUST_PROXY: "yes please" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: "2" })).toThrow(/TRUST_PROXY/);
  });
});

describe("S3_* (object storage)", () => {
  const all = { S3_ENDPOINT: "http://minio:9000", S3_REGION: "us-east-1", S3_BUCKET: "elo-files", S3_ACCESS_KEY_ID: "elo", S3_SECRET_ACCESS_KEY: "segredo" };

  it("keeps files on disk when none is set", () => {
    expect(loadConfig({}).s3).toBeNull();
  });

  it("configures the bucket when all are set; path style and the public endpoint are optional", () => {
    expect(loadConfig(all).s3).toEqual({
      endpoint: "http://minio:9000", publicEndpoint: "http://minio:9000", region: "us-east-1", bucket: "elo-files",
      accessKeyId: "elo", secretAccessKey: "segredo", forcePathStyle: false,
    });
    expect(loadConfig({ ...all, S3_FORCE_PATH_STYLE: "1", S3_PUBLIC_ENDPOINT: "http://localhost:9000" }).s3).toMatchObject({ forcePathStyle: true, publicEndpoint: "http://localhost:9000" });
  });

  it("refuses a partial set, naming every missing variable", () => {
    let message = "";
    try {
      loadConfig({ S3_BUCKET: "elo-files", S3_FORCE_PATH_STYLE: "1" });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const missing of ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"]) expect(message).toMatch(new RegExp(`^\\s+${missing}: missing`, "m"));
    expect(message).not.toMatch(/^\s+S3_BUCKET:/m);
    expect(() => loadConfig({ ...all, S3_SECRET_ACCESS_KEY: undefined })).toThrow(/S3_SECRET_ACCESS_KEY: missing/);
  });

  it("names a wrong value together with the other wrong variables", () => {
    expect(() => loadConfig({ ...all, S3_ENDPOINT: "minio" })).toThrow(/S3_ENDPOINT: /);
    expect(() => loadConfig({ ...all, S3_BUCKET: "Elo_Files" })).toThrow(/S3_BUCKET: use an S3 bucket name/);
    expect(() => loadConfig({ ...all, S3_FORCE_PATH_STYLE: "sim" })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(() => loadConfig({ PORT: "x", S3_REGION: "us-east-1" })).toThrow(/PORT: [\s\S]*S3_ENDPOINT: missing/);
  });
});

describe("SHUTDOWN_GRACE_MS", () => {
  it("defaults to 15 s and refuses a grace period too short or unbounded", () => {
    expect(loadConfig({}).SHUTDOWN_GRACE_MS).toBe(15_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: "30000" }).SHUTDOWN_GRACE_MS).toBe(30_000);
    for (const bad of ["0", "999", "600001", "soon", "1.5"]) expect(() => loadConfig({ SHUTDOWN_GRACE_MS: bad })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});

describe("REDIS_URL", () => {
  it("is absent by default: the limits count per process", () => {
    expect(loadConfig({}).REDIS_URL).toBeUndefined();
  });

  it("takes redis:// and rediss:// addresses", () => {
    expect(loadConfig({ REDIS_URL: "redis://127.0.0.1:6379" }).REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(loadConfig({ REDIS_URL: "rediss://:senha@redis.internal:6380/2" }).REDIS_URL).toBe("rediss://:senha@redis.internal:6380/2");
  });

  it("stops the start-up on anything else, naming REDIS_URL", () => {
    for (const bad of ["127.0.0.1:6379", "http://redis:6379", "redis://", "redis"]) {
      expect(() => loadConfig({ REDIS_URL: bad }), bad).toThrow(/^\s+REDIS_URL: use redis:\/\//m);
    }
  });
});
