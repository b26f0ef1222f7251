import { LIMITS, profileMessages as m, profileUi as ui, verificationMessages } from "@elo/shared";
import { Anchor, Button, FileInput, Group, Stack, Text, TextInput } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { notifyError, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { uploadFile, UploadFailure } from "../../lib/upload";
import { VerificationState, type Verification } from "./VerificationState";

const PROOF_TYPES = ["image/jpeg", "image/png", "application/pdf"];

interface ProofUploadProps {
  enrollmentId?: string;
  currentUrl: string | null;
  canSend: () => boolean;
  idPrefix: string;
  verification: Verification;
}

/** The proof picker, the declared class and 'Enviar' of one enrollment tab (main when `enrollmentId` is absent), with the proof's state. */
export function ProofUpload({ enrollmentId, currentUrl, canSend, idPrefix, verification }: ProofUploadProps) {
  const [file, setFile] = useState<File | null>(null);
  const [declaredClass, setDeclaredClass] = useState("");
  const [sending, setSending] = useState(false);
  const queryClient = useQueryClient();

  const send = async () => {
    if (!file) return notifyError(m.proofSelectFile);
    if (!PROOF_TYPES.includes(file.type)) return notifyError({ title: m.avatarInvalidTypeTitle, description: m.proofInvalidType });
    if (file.size > LIMITS.proofMaxBytes) return notifyError({ title: m.avatarTooLargeTitle, description: m.proofTooLarge });
    if (!canSend()) return notifyError({ title: m.proofErrorTitle, description: m.proofNeedsNames });
    setSending(true);
    try {
      const fields: Record<string, string> = enrollmentId ? { enrollmentId } : {};
      if (declaredClass.trim()) fields.declaredClass = declaredClass.trim();
      await uploadFile("/api/uploads/enrollment-proof", file, fields);
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
    <Stack gap="xs">
      <VerificationState verification={verification} />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          id={`${idPrefix}-class`}
          label={verificationMessages.declaredClassLabel}
          placeholder={verificationMessages.declaredClassPlaceholder}
          maxLength={LIMITS.declaredClassMax}
          value={declaredClass}
          onChange={(e) => setDeclaredClass(e.currentTarget.value)}
          style={{ flex: "0 1 160px" }}
        />
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
    </Stack>
  );
}
