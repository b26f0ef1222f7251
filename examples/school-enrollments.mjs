#!/usr/bin/env node
// School office: the enrollment proofs that name your school ('Confirmar matrículas').
//   node examples/school-enrollments.mjs                        lists the proofs waiting for a decision
//   node examples/school-enrollments.mjs confirm <id>            confirms that student's enrollment
//   node examples/school-enrollments.mjs refuse <id> <motivo> [texto]
//        motivo: ilegivel, outro_aluno, outra_escola, documento_vencido ou outro (com texto)
// The token must belong to approved staff of the school.
import { formatDate } from "./lib/format.mjs";
import { clientFromEnv, run } from "./lib/cli.mjs";

const REASONS = ["ilegivel", "outro_aluno", "outra_escola", "documento_vencido", "outro"];

run(async () => {
  const elo = clientFromEnv();
  const [command, id, reason, ...note] = process.argv.slice(2);

  if (command === "confirm" || command === "refuse") {
    if (!id) throw new Error(`Informe o id do comprovante, por exemplo: ${command} 3f2c…`);
    if (command === "refuse" && !REASONS.includes(reason ?? "")) throw new Error(`Informe o motivo: ${REASONS.join(", ")}.`);
    const decided =
      command === "confirm"
        ? await elo.school.verifications.confirm.mutate({ id })
        : await elo.school.verifications.refuse.mutate({ id, reason: /** @type {"ilegivel" | "outro_aluno" | "outra_escola" | "documento_vencido" | "outro"} */ (reason), note: note.join(" ") || null });
    console.log(decided.status === "verificado" ? `Matrícula confirmada; vale até ${formatDate(decided.verifiedUntil)}.` : "Comprovante recusado; o responsável foi avisado por e-mail.");
    return;
  }
  if (command) throw new Error(`Comando desconhecido: ${command}. Use "confirm <id>", "refuse <id> <motivo> [texto]" ou nada para listar.`);

  const pending = (await elo.school.verifications.list.query()).filter((p) => p.status === "enviado");
  if (pending.length === 0) {
    console.log("Nenhum comprovante aguardando confirmação.");
    return;
  }
  console.log(`${pending.length} comprovante(s) aguardando confirmação:`);
  for (const p of pending) {
    console.log(`${p.id}  ${p.studentName ?? "-"}  ${p.declaredClass ?? "turma não informada"}  responsável: ${p.parentName ?? "-"}  enviado em ${formatDate(p.submittedAt)}`);
  }
});
