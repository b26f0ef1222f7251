import { defineEmailTemplate } from "./template";

export interface EnrollmentProofData {
  parentName: string;
  parentEmail: string;
  studentName: string;
  schoolName: string;
  /** Full signed address of the file (valid 1 hour). */
  fileUrl: string;
  /** The name the parent's file had (display only). */
  fileName: string;
}

/** send-enrollment-proof: a parent sent a proof; goes to the platform's admin address. */
export const enrollmentProofEmail = defineEmailTemplate<EnrollmentProofData>({
  kind: "enrollment-proof",
  label: "Comprovante de matrícula para validação",
  content: (d) => ({
    subject: `Comprovante de matrícula para validação — ${d.studentName}`,
    preheader: `${d.parentName} enviou o comprovante de matrícula de ${d.studentName}.`,
    heading: "Comprovante de matrícula enviado",
    blocks: [
      { kind: "paragraph", text: "Um responsável enviou um comprovante de matrícula para validação." },
      {
        kind: "details",
        rows: [
          ["Responsável", d.parentName],
          ["E-mail", d.parentEmail],
          ["Aluno", d.studentName],
          ["Escola", d.schoolName],
          ["Arquivo", d.fileName],
        ],
      },
      { kind: "button", label: "Abrir comprovante", url: d.fileUrl },
      { kind: "note", text: "O link do arquivo vale por 1 hora. Depois disso, consulte o comprovante na área administrativa." },
    ],
  }),
  sample: (env) => ({
    parentName: "Maria Silva",
    parentEmail: "maria@example.com",
    studentName: "Ana Silva",
    schoolName: "Colégio Horizonte",
    fileUrl: `${env.publicOrigin}/files/enrollment_proofs/exemplo/comprovante.pdf?expires=0&signature=exemplo`,
    fileName: "comprovante.pdf",
  }),
});
