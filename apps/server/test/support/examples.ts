import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** Runs `node examples/<script> ...args` against a server as the owner of `token`, like a user would. */
export function runExample(script: string, opts: { url: string; token: string; args?: string[]; cwd?: string }) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, "examples", script), ...(opts.args ?? [])],
      { cwd: opts.cwd ?? repoRoot, env: { PATH: process.env.PATH, ELO_URL: opts.url, ELO_TOKEN: opts.token }, timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}
