import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll } from "vitest";
import { loadConfig, type S3Settings } from "../../src/config";

/** s3rver's built-in credentials. */
const CREDENTIALS = { S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" };

/**
 * A real S3-compatible server in this process (s3rver) on a free port, with one empty bucket, its
 * objects in a temp folder: `env` configures the app for it. Call `close()` when done.
 */
export async function startS3(bucket = "elo-test") {
  const directory = mkdtempSync(path.join(tmpdir(), "elo-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const env: Record<string, string> = {
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: "us-east-1",
    S3_BUCKET: bucket,
    S3_FORCE_PATH_STYLE: "1",
    ...CREDENTIALS,
  };
  const settings: S3Settings = loadConfig(env).s3!;
  return {
    env,
    settings,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
export type TestS3 = Awaited<ReturnType<typeof startS3>>;

/** An s3rver for one test file, started before its tests and closed after them. */
export function withS3(receive: (s3: TestS3) => void) {
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    s3 = await startS3();
    receive(s3);
  });
  afterAll(() => s3?.close());
}
