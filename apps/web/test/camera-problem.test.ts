import { describe, expect, it } from "vitest";
import { cameraProblem } from "../src/features/voucher-qr/camera";

const domError = (name: string) => Object.assign(new Error(name), { name });

describe("the desk's camera failures, in the person's terms", () => {
  it("tells a refused permission from a missing camera from anything else", () => {
    expect(cameraProblem(domError("NotAllowedError"))).toBe("denied");
    expect(cameraProblem(domError("SecurityError"))).toBe("denied");
    expect(cameraProblem(domError("NotFoundError"))).toBe("noCamera");
    expect(cameraProblem(domError("OverconstrainedError"))).toBe("noCamera");
    expect(cameraProblem(domError("NotReadableError"))).toBe("cameraFailed");
    expect(cameraProblem({ name: "NotAllowedError" })).toBe("denied");
    expect(cameraProblem(undefined)).toBe("cameraFailed");
    expect(cameraProblem("boom")).toBe("cameraFailed");
  });
});
