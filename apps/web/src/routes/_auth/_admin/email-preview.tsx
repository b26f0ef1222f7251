import { createFileRoute } from "@tanstack/react-router";
import { EmailPreviewPage } from "../../../features/auth/EmailPreviewPage";

export const Route = createFileRoute("/_auth/_admin/email-preview")({
  component: EmailPreviewPage,
});
