import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem, requiredMajor } from "../../../../scripts/require-node.mjs";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const major = (version: string) => Number(version.replace(/^v/, "").split(".")[0]);

describe("Node.js runtime (decision 156)", () => {
  it("the test runner itself runs on Node 24 or newer", () => {
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(24);
  });

  it("a child started by name (`node`, found on PATH as npm scripts set it) is Node 24 too", () => {
    const version = execFileSync("node", ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
    expect(major(version)).toBeGreaterThanOrEqual(requiredMajor);
  });

  it("says in one line what to install when the Node.js is older", () => {
    expect(nodeVersionProblem("24.11.1")).toBeNull();
    expect(nodeVersionProblem("v26.0.0")).toBeNull();
    const line = nodeVersionProblem("20.20.2");
    expect(line).toContain("Node.js 24");
    expect(line).toContain("v20.20.2");
    expect(line).not.toContain("\n");
  });

  // The machines this project runs on ship Node 20 as the system's node: `npm start` on it must
  // stop with the line above, not a stack trace. Where the system has no older node, nothing to run.
  const systemNode = ["/usr/bin/node", "/usr/local/bin/node"].find(
    (p) => existsSync(p) && major(execFileSync(p, ["-p", "process.versions.node"], { encoding: "utf8" })) < requiredMajor,
  );
  it.runIf(systemNode)("an older system node running the start check exits 1 with that line", () => {
    const run = spawnSync(realpathSync(systemNode!), ["scripts/require-node.mjs"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("precisa do Node.js 24");
  });
});

describe("Docker image", () => {
  it("builds and runs on Node 24 (every stage's base image)", () => {
    const froms = readFileSync(`${root}Dockerfile`, "utf8").split("\n").filter((l) => /^FROM\s/i.test(l));
    expect(froms.length).toBeGreaterThan(0);
    for (const line of froms) expect(line).toMatch(/^FROM node:24[-.\s]/);
  });
});
