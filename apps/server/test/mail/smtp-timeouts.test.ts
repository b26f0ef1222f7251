import { describe, expect, it } from "vitest";
import { SEND_LEASE_MS, SMTP_TIMEOUTS } from "../../src/mail/mailer";

describe("SMTP timeouts against the send lease (decision 137)", () => {
  it("a stalled exchange gives up before another process may take its row", () => {
    const { connectionTimeout, greetingTimeout, socketTimeout } = SMTP_TIMEOUTS;
    // Connecting, waiting for the greeting and one silent step of the exchange all fit in one lease.
    expect(connectionTimeout + greetingTimeout + socketTimeout).toBeLessThan(SEND_LEASE_MS);
  });
});
