/** Why the desk's QR reader shows no picture: no camera, permission refused, or any other failure. */
export type CameraProblem = "noCamera" | "denied" | "cameraFailed";

/** What a failed `getUserMedia` (or its absence) means for the person at the desk. */
export function cameraProblem(error: unknown): CameraProblem {
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
  if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") return "denied";
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") return "noCamera";
  return "cameraFailed";
}

/** The camera, the rear one where the device has it (a phone at the desk); never `exact`, so a laptop's camera also does. */
export function openCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(Object.assign(new Error("no mediaDevices"), { name: "NotFoundError" }));
  return navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false });
}

/** Which decoder read the frames: the browser's own, or the JavaScript fallback. */
export type QrReaderKind = "barcode-detector" | "zxing";

interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<Array<{ rawValue: string }>>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?(): Promise<string[]>;
}

/**
 * A function that reads the QR code in the video's current frame (its text, or null): the
 * browser's `BarcodeDetector` where it reads QR codes, otherwise `@zxing/browser`, imported only now.
 */
export async function qrReader(): Promise<{ kind: QrReaderKind; read: (video: HTMLVideoElement) => Promise<string | null> }> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector && (await Detector.getSupportedFormats?.().catch((): string[] => []))?.includes("qr_code")) {
    const detector = new Detector({ formats: ["qr_code"] });
    return { kind: "barcode-detector", read: async (video) => (await detector.detect(video))[0]?.rawValue ?? null };
  }
  const { BrowserQRCodeReader } = await import("@zxing/browser");
  const reader = new BrowserQRCodeReader();
  const canvas = document.createElement("canvas");
  return {
    kind: "zxing",
    read: async (video) => {
      if (!video.videoWidth) return null;
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      canvas.getContext("2d", { willReadFrequently: true })!.drawImage(video, 0, 0);
      try {
        return reader.decodeFromCanvas(canvas).getText();
      } catch {
        return null; // no code in this frame
      }
    },
  };
}
