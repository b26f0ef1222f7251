import { expect } from "vitest";

/** Opens the profile.changes SSE stream (a tab's live header) and collects its `data:` lines. */
export function openProfileStream(url: string, cookie: string) {
  const controller = new AbortController();
  const events: string[] = [];
  let notify: (() => void) | null = null;
  const opened = fetch(`${url}/trpc/profile.changes`, { headers: { cookie, accept: "text/event-stream" }, signal: controller.signal }).then(async (res) => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const line of decoder.decode(value, { stream: true }).split("\n")) {
            if (line.startsWith("data:") && line.includes("avatarUrl")) {
              events.push(line);
              notify?.();
            }
          }
        }
      } catch {
        // aborted
      }
    })();
  });
  return {
    opened,
    events,
    /** Resolves with the first event matching `test`, or rejects after `ms`. */
    waitFor(test: (line: string) => boolean, ms = 8000) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event in ${ms} ms; got ${events.length}`)), ms);
        const check = () => {
          const hit = events.find(test);
          if (hit) {
            clearTimeout(timer);
            notify = null;
            resolve(hit);
          }
        };
        notify = check;
        check();
      });
    },
    close: () => controller.abort(),
  };
}
