import type { FastifyBaseLogger } from "fastify";

/** Work that must not hold up (or show in the timing of) the answer it belongs to. */
export interface BackgroundTasks {
  /** Starts `task` now; a failure is logged under `name`, never thrown. */
  run(name: string, task: () => Promise<unknown>): void;
  /** Resolves once every task started so far, and any they started, has ended (graceful close, tests). */
  settled(): Promise<void>;
}

export function backgroundTasks(logger: FastifyBaseLogger): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(name, task) {
      const done: Promise<void> = Promise.resolve()
        .then(task)
        .then(
          () => {},
          (err: unknown) => logger.error({ err, task: name }, "background task failed"),
        )
        .finally(() => running.delete(done));
      running.add(done);
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
