// Preloaded into the production server by the bench only (`node --import`): measures the event
// loop's delay and answers over the IPC channel. Production code stays untouched (decision 081).
//
// monitorEventLoopDelay records the time between two ticks of its RESOLUTION_MS timer, so an idle
// loop reads RESOLUTION_MS, not 0 (nodejs/node#62935: "an implicit floor of resolution ms"). The
// delay reported is what lies beyond that: how late the timer fired.
import { monitorEventLoopDelay } from "node:perf_hooks";

const RESOLUTION_MS = 10;

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  process.channel?.unref();
  const lateMs = (ns) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);
  process.on("message", (message) => {
    if (message === "eld:reset") {
      histogram.reset();
      process.send({ eld: "reset" });
    } else if (message === "eld:report") {
      process.send({
        eld: { p50: lateMs(histogram.percentile(50)), p99: lateMs(histogram.percentile(99)), max: lateMs(histogram.max), mean: lateMs(histogram.mean), samples: histogram.count },
      });
    }
  });
}
