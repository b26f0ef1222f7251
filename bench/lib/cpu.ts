import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, type Probe } from "./processes";
import { round } from "./stats";

/**
 * Runs `fn` (one pass of load) and returns its result with the CPU time the server spent meanwhile,
 * in ms, and the kernel's part of it (system time: socket reads and writes, mostly).
 */
export async function withCpu<T>(probe: Probe, fn: () => Promise<T>): Promise<{ result: T; cpuMs: number; systemMs: number }> {
  const before = await probe.cpuSplit();
  const result = await fn();
  const after = await probe.cpuSplit();
  return { result, cpuMs: (after.micros - before.micros) / 1000, systemMs: (after.systemMicros - before.systemMicros) / 1000 };
}

/** CPU per answered unit (a 2xx answer, a committed voucher) in ms; NaN when nothing was answered. */
export const perUnit = (cpuMs: number, units: number) => (units > 0 ? round(cpuMs / units, 4) : Number.NaN);

export const PROFILES_DIR = path.join(ROOT, "bench/profiles");

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A frame's place, short: the package for dependencies, the path from the repository for our code. */
function placeOf(url: string): string {
  if (!url) return "(native)";
  const file = url.replace(/^file:\/\//, "");
  const nm = file.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = file.slice(nm + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (file.startsWith("node:")) return file;
  return path.relative(ROOT, file);
}

/**
 * The top self-time frames of a V8 CPU profile and the self time per place (package or file), as
 * text: what bench/profiles/ keeps instead of megabytes of JSON (issue 30). Idle and GC are listed
 * apart, since they are not a frame of ours.
 */
export function summarizeProfile(profile: CpuProfile, requests: number, top = 10): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const frames = new Map<string, { us: number; place: string }>();
  const places = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    // The profiler's own start and stop (node:inspector) are not the server's work either.
    if (functionName === "(idle)" || functionName === "(program)" || url === "node:inspector") {
      idle += us;
      continue;
    }
    busy += us;
    const place = functionName === "(garbage collector)" ? "(gc)" : placeOf(url);
    // A native frame is named with its JS caller: "writeBuffer" alone does not say socket or file.
    const caller = url ? undefined : parentOf.get(id)?.callFrame;
    const via = caller ? ` ← ${caller.functionName || "(anonymous)"} ${placeOf(caller.url)}:${caller.lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${place}${url ? `:${lineNumber + 1}` : ""}${via}`;
    const f = frames.get(key) ?? { us: 0, place };
    f.us += us;
    frames.set(key, f);
    places.set(place, (places.get(place) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const perReq = (us: number) => `${(us / 1000 / Math.max(1, requests)).toFixed(4)} ms/req`;
  const lines = [
    `busy ${round(busy / 1000)} ms over ${requests} answered requests = ${perReq(busy)} (idle, program and the profiler's own ${round(idle / 1000)} ms, not counted)`,
    "",
    `top ${top} self-time frames:`,
    ...[...frames].sort((a, b) => b[1].us - a[1].us).slice(0, top).map(([k, f]) => `  ${pct(f.us)}  ${perReq(f.us)}  ${k}`),
    "",
    "self time by package or file (top 15):",
    ...[...places].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([p, us]) => `  ${pct(us)}  ${perReq(us)}  ${p}`),
  ];
  return lines.join("\n") + "\n";
}

/**
 * Records a CPU profile of the server during one extra pass (`fn`, returning the requests it
 * answered) and writes its summary to bench/profiles/<name>.txt; the measured passes run without
 * the profiler, whose sampling costs CPU of its own.
 */
export async function profilePass(probe: Probe, name: string, workDir: string, fn: () => Promise<number>): Promise<string> {
  const file = path.join(workDir, `${name}.cpuprofile`);
  await probe.profileStart();
  const requests = await fn();
  await probe.profileStop(file);
  const summary = `# ${name}\n\n${summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, requests)}`;
  mkdirSync(PROFILES_DIR, { recursive: true });
  writeFileSync(path.join(PROFILES_DIR, `${name}.txt`), summary);
  return summary;
}
