import { defineEmailTemplate } from "./template";

export interface WebhookPausedData {
  schoolName: string;
  url: string;
  /** When the failures started (ISO). */
  failingSince: string;
  /** The last answer or error, short. */
  lastError: string;
}

/** An endpoint failed for 3 days and was paused; goes to the school's approved staff (issue 29). */
export const webhookPausedEmail = defineEmailTemplate<WebhookPausedData>({
  kind: "webhook-paused",
  label: "Webhook pausado após 3 dias de falhas",
  content: (d) => ({
    subject: `Webhook pausado após 3 dias de falhas — ${d.schoolName}`,
    preheader: `As entregas para ${d.url} falharam por 3 dias e o endpoint foi pausado.`,
    heading: "Webhook pausado",
    blocks: [
      { kind: "paragraph", text: "As entregas de eventos para um endpoint da sua escola falharam por 3 dias seguidos. Pausamos o endpoint para não insistir mais." },
      {
        kind: "details",
        rows: [
          ["Escola", d.schoolName],
          ["Endpoint", d.url],
          ["Falhando desde", new Date(d.failingSince).toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo" })],
          ["Último erro", d.lastError],
        ],
      },
      { kind: "note", text: "Corrija o sistema que recebe os eventos e reative o endpoint em Dados da escola › Integrações (webhooks). Use 'Reenviar' para os eventos que faltaram." },
    ],
  }),
  sample: () => ({ schoolName: "Colégio Horizonte", url: "https://erp.exemplo.com.br/webhooks/elo", failingSince: "2026-01-10T12:00:00.000Z", lastError: "HTTP 503" }),
});
