import { LIMITS, profileMessages as m, profileUi as ui } from "@elo/shared";
import { Anchor, Button, FileInput, Group, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { notifyError, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { uploadFile, UploadFailure } from "../../lib/upload";

const PROOF_TYPES = ["image/jpeg", "image/png", "application/pdf"];

/** The proof picker and 'Enviar' of one enrollment tab (main when `enrollmentId` is absent). */
export function ProofUpload({ enrollmentId, currentUrl, canSend, idPrefix }: { enrollmentId?: string; currentUrl: string | null; canSend: () => boolean; idPrefix: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const queryClient = useQueryClient();

  const send = async () => {
    if (!file) return notifyError(m.proofSelectFile);
    if (!PROOF_TYPES.includes(file.type)) return notifyError({ title: m.avatarInvalidTypeTitle, description: m.proofInvalidType });
    if (file.size > LIMITS.proofMaxBytes) return notifyError({ title: m.avatarTooLargeTitle, description: m.proofTooLarge });
    if (!canSend()) return notifyError({ title: m.proofErrorTitle, description: m.proofNeedsNames });
    setSending(true);
    try {
      await uploadFile("/api/uploads/enrollment-proof", file, enrollmentId ? { enrollmentId } : {});
      notifyOk({ title: m.proofSentTitle, description: m.proofSentDescription });
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
    } catch (error) {
      notifyError(error instanceof UploadFailure ? error.toast : { title: m.proofErrorTitle, description: m.proofErrorDescription });
    } finally {
      setSending(false);
    }
  };

  return (
    <div>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <FileInput
          id={`${idPrefix}-proof`}
          label={ui.proofLabel}
          description={ui.proofHint}
          placeholder={ui.chooseFile}
          accept={PROOF_TYPES.join(",")}
          value={file}
          onChange={setFile}
          clearable
          style={{ flex: "1 1 220px" }}
        />
        <Button onClick={send} loading={sending} variant="light">
          {ui.send}
        </Button>
      </Group>
      {currentUrl && (
        <Text size="sm" mt={6}>
          {ui.proofSentNote}{" "}
          <Anchor href={currentUrl} download>
            {ui.viewFile}
          </Anchor>
        </Text>
      )}
    </div>
  );
}
