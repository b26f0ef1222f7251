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

describe("SHUTDOWN_GRACE_MS", () => {
  it("defaults to 15 s and refuses a grace period too short or unbounded", () => {
    expect(loadConfig({}).SHUTDOWN_GRACE_MS).toBe(15_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: "30000" }).SHUTDOWN_GRACE_MS).toBe(30_000);
    for (const bad of ["0", "999", "600001", "soon", "1.5"]) expect(() => loadConfig({ SHUTDOWN_GRACE_MS: bad })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});
