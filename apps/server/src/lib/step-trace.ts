/**
 * Milliseconds from the start of a request (Fastify's, once Node has read its headers) to each
 * named step, for seeing where a request's time goes (docs/performance.md, login). Made only when
 * the log level is debug; `bench/login-trace.ts` reads the lines it logs.
 */
export interface StepTrace {
  mark(step: string): void;
}

/** A trace whose origin lies `elapsedMs` before now; `report` gets the steps once the answer has gone out. */
export function stepTrace(elapsedMs: number, onAnswered: (callback: () => void) => void, report: (steps: Record<string, number>) => void): StepTrace {
  const origin = performance.now() - elapsedMs;
  const steps: Record<string, number> = {};
  const mark = (step: string) => void (steps[step] = Math.round((performance.now() - origin) * 1000) / 1000);
  onAnswered(() => {
    mark("answered");
    report(steps);
  });
  return { mark };
}
