import { voucherQrMessages as qr } from "@elo/shared";
import { Alert, Box, Button, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { voucherCodeFromAddress } from "./address";
import { cameraProblem, openCamera, qrReader, type CameraProblem, type QrReaderKind } from "./camera";

const FRAME_INTERVAL_MS = 200;

/**
 * The desk's 'Ler QR code' (decision 140): the camera in a dialog, read until a voucher address of
 * this site shows up; then the camera stops and `onCode` gets the code, which the desk looks up as if
 * typed. The decoder (`@zxing/browser`, where the browser has no `BarcodeDetector`) loads when it opens.
 */
export function QrScanDialog({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const [wrongCode, setWrongCode] = useState(false);
  const [reader, setReader] = useState<QrReaderKind | null>(null);
  const done = useRef(onCode);
  done.current = onCode;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
    setProblem(null);
    void (async () => {
      try {
        stream = await openCamera();
      } catch (error) {
        if (!stopped) setProblem(cameraProblem(error));
        return;
      }
      if (stopped) return stop();
      const el = video.current!;
      el.srcObject = stream;
      try {
        await el.play();
        const { kind, read } = await qrReader();
        if (stopped) return;
        setReader(kind);
        const tick = async () => {
          if (stopped) return;
          const text = await read(el).catch(() => null);
          if (stopped) return;
          if (text !== null) {
            const code = voucherCodeFromAddress(text, window.location.origin);
            if (code) {
              stop();
              done.current(code);
              return;
            }
            setWrongCode(true);
          }
          timer = setTimeout(() => void tick(), FRAME_INTERVAL_MS);
        };
        void tick();
      } catch (error) {
        if (stopped) return;
        stop();
        setProblem(cameraProblem(error));
      }
    })();
    return stop;
  }, [attempt]);

  return (
    <Modal opened onClose={onClose} title={qr.scanTitle} centered>
      <Stack gap="sm" data-testid="qr-scan" data-reader={reader ?? undefined}>
        {problem ? (
          <Alert color={problem === "denied" ? "orange" : "red"} role="alert" data-testid="qr-scan-problem">
            {qr[problem]}
          </Alert>
        ) : (
          <>
            <Text size="sm">{qr.scanHint}</Text>
            <Box pos="relative" bg="dark.7" style={{ borderRadius: 8, overflow: "hidden", aspectRatio: "4 / 3" }}>
              <video ref={video} muted playsInline style={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }} />
              {!reader && (
                <Group pos="absolute" inset={0} justify="center" gap="xs">
                  <Loader size="sm" color="white" />
                  <Text c="white" size="sm">
                    {qr.opening}
                  </Text>
                </Group>
              )}
            </Box>
            {wrongCode && (
              <Alert color="orange" role="alert" data-testid="qr-scan-problem">
                {qr.notVoucher}
              </Alert>
            )}
          </>
        )}
        <Group justify="flex-end">
          {problem && problem !== "noCamera" && (
            <Button variant="light" onClick={() => setAttempt((n) => n + 1)}>
              {qr.tryAgain}
            </Button>
          )}
          <Button variant="default" onClick={onClose}>
            {qr.close}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
