// Preloaded into every server the bench measures (the app and the bare baselines, `node --import`):
// answers its CPU time and records CPU profiles on request over the IPC channel, so a figure can
// divide the CPU a pass cost by the requests it answered and name where that CPU went (issue 30).
// Production code stays untouched (decision 081).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

if (process.send) {
  let session = null;
  const answer = (id, body) => process.send({ probe: id, ...body });
  process.on("message", async (message) => {
    if (!message || typeof message !== "object" || message.probe === undefined) return;
    const { probe: id, op } = message;
    try {
      if (op === "cpu") {
        const { user, system } = process.cpuUsage();
        const main = process.threadCpuUsage();
        answer(id, { micros: user + system, systemMicros: system, mainMicros: main.user + main.system, mainSystemMicros: main.system });
      } else if (op === "profile:start") {
        session = new Session();
        session.connect();
        await session.post("Profiler.enable");
        // 250 µs between samples: enough samples in a pass of a few seconds, little overhead.
        await session.post("Profiler.setSamplingInterval", { interval: 250 });
        await session.post("Profiler.start");
        answer(id, {});
      } else if (op === "profile:stop") {
        const { profile } = await session.post("Profiler.stop");
        session.disconnect();
        session = null;
        writeFileSync(message.file, JSON.stringify(profile));
        answer(id, {});
      }
    } catch (error) {
      answer(id, { error: String(error) });
    }
  });
  process.channel?.unref();
}
