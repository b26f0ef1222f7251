import postgres from "postgres";

/** The URL of another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates a fresh, empty database for one bench run; `drop()` removes it. */
export async function freshDatabase(serverUrl: string, name = `elo_bench_${Date.now()}`) {
  const admin = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return {
    name,
    url: withDatabase(serverUrl, name),
    async drop() {
      const a = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
