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
