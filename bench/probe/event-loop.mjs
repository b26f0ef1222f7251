// Preloaded into the production server by the bench only (`node --import`): measures the event
// loop's delay and answers over the IPC channel. Production code stays untouched (decision 081).
import { monitorEventLoopDelay } from "node:perf_hooks";

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  process.channel?.unref();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  process.on("message", (message) => {
    if (message === "eld:reset") {
      histogram.reset();
      process.send({ eld: "reset" });
    } else if (message === "eld:report") {
      process.send({
        eld: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean), samples: histogram.count },
      });
    }
  });
}
