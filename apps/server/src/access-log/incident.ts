import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";
import { queryRows } from "../db/raw";

/** What `npm run incident` looks at: a window, optionally one school (by id or by name, case-insensitive). */
export interface IncidentQuery {
  from: Date;
  to: Date;
  school?: string | null;
}

type Access = {
  kind: "proof" | "voucher" | "listing" | "erased";
  parent_id: string;
  parent_email: string | null;
  student_name: string | null;
  school_id: string | null;
  organization: string | null;
  viewer_id: string | null;
  viewer_first_name: string | null;
  viewer_role: string | null;
  item: string;
  at: Date | string;
};

const uuidLike = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The accounts whose data was opened or served in a window (Resolução CD/ANPD 15/2024: the
 * controller has 3 business days to tell the ANPD and the holders), read from the access logs:
 * proof openings and decisions, voucher desk lookups and lists, the admins' parents listings, and
 * what stays of deleted accounts' logs (decision 194). Grouped by account, by school, by staff
 * member and by file; counts the children (distinct student names per account).
 */
export async function incidentReport(db: Database, q: IncidentQuery) {
  const school = q.school?.trim() || null;
  const bySchool = school
    ? uuidLike.test(school)
      ? sql`and school_id = ${school}::uuid`
      : sql`and lower(organization) like ${`%${school.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`
    : sql``;
  const rows = await queryRows<Access>(
    db,
    sql`
    select * from (
      select 'proof' as kind, p.user_id::text as parent_id, u.email as parent_email, p.student_name, v.viewer_school_id as school_id,
             coalesce(v.organization_name, case when v.viewer_school_id is null then 'Administração Elo Escolar' end) as organization,
             v.viewer_id, v.viewer_first_name, v.viewer_role, 'comprovante ' || p.file_key as item, v.viewed_at as at
      from enrollment_proof_views v join enrollment_proofs p on p.id = v.proof_id left join users u on u.id = p.user_id
      where v.viewed_at >= ${q.from.toISOString()}::timestamptz and v.viewed_at < ${q.to.toISOString()}::timestamptz
      union all
      select 'voucher', d.holder_id::text, u.email, pr.student_name, d.school_id, d.organization_name,
             d.viewer_id, d.viewer_first_name, d.viewer_role, 'voucher ' || t.voucher_code, d.viewed_at
      from voucher_desk_views d join discount_transactions t on t.id = d.voucher_id
      left join users u on u.id = d.holder_id left join profiles pr on pr.user_id = d.holder_id
      where d.viewed_at >= ${q.from.toISOString()}::timestamptz and d.viewed_at < ${q.to.toISOString()}::timestamptz
      union all
      select 'listing', l.holder_id::text, u.email, pr.student_name, l.viewer_school_id,
             coalesce(l.organization_name, case when l.viewer_school_id is null then 'Administração Elo Escolar' end),
             l.viewer_id, l.viewer_first_name, l.viewer_role, 'lista de responsáveis', l.viewed_at
      from parent_listing_views l left join users u on u.id = l.holder_id left join profiles pr on pr.user_id = l.holder_id
      where l.viewed_at >= ${q.from.toISOString()}::timestamptz and l.viewed_at < ${q.to.toISOString()}::timestamptz
      union all
      -- Accounts deleted since (decision 194): counted by the hash of their id, no e-mail or child's name left.
      select 'erased', 'excluída:' || substr(e.account_hash, 1, 16), null, null, e.viewer_school_id,
             coalesce(e.organization_name, case when e.viewer_school_id is null then 'Administração Elo Escolar' end),
             e.viewer_id, e.viewer_first_name, e.viewer_role, 'registro de conta excluída (' || e.kind || ')', e.viewed_at
      from erased_access_log e
      where e.viewed_at >= ${q.from.toISOString()}::timestamptz and e.viewed_at < ${q.to.toISOString()}::timestamptz
    ) a where true ${bySchool}
    order by at`,
  );

  const group = <K extends string>(key: (r: Access) => K, label: (r: Access) => string) => {
    const m = new Map<K, { label: string; accesses: number; accounts: Set<string> }>();
    for (const r of rows) {
      const k = key(r);
      const g = m.get(k) ?? { label: label(r), accesses: 0, accounts: new Set<string>() };
      g.accesses++;
      g.accounts.add(r.parent_id);
      m.set(k, g);
    }
    return [...m.values()].map((g) => ({ label: g.label, accesses: g.accesses, accounts: g.accounts.size })).sort((a, b) => b.accesses - a.accesses || a.label.localeCompare(b.label));
  };

  const accounts = new Map<string, { email: string | null; accesses: number; children: Set<string> }>();
  for (const r of rows) {
    const a = accounts.get(r.parent_id) ?? { email: r.parent_email, accesses: 0, children: new Set<string>() };
    a.accesses++;
    if (r.student_name?.trim()) a.children.add(r.student_name.trim().toLowerCase());
    accounts.set(r.parent_id, a);
  }
  const children = [...accounts.values()].reduce((n, a) => n + Math.max(a.children.size, 1), 0);
  return {
    window: { from: q.from.toISOString(), to: q.to.toISOString(), school },
    accesses: rows.length,
    accountsAffected: accounts.size,
    childrenAffected: accounts.size === 0 ? 0 : children,
    accounts: [...accounts.entries()].map(([id, a]) => ({ id, email: a.email, accesses: a.accesses, children: a.children.size })),
    bySchool: group((r) => (r.school_id ?? `org:${r.organization ?? "?"}`) as string, (r) => r.organization ?? "(escola removida)"),
    byStaff: group((r) => (r.viewer_id ?? `gone:${r.viewer_first_name}`) as string, (r) => `${r.viewer_first_name ?? "(conta removida)"} — ${r.viewer_role ?? "?"}, ${r.organization ?? "?"}${r.viewer_id ? ` [${r.viewer_id}]` : ""}`),
    byFile: group((r) => r.item, (r) => r.item),
  };
}
export type IncidentReport = Awaited<ReturnType<typeof incidentReport>>;

/** The report as text, with the fields art. 48 § 1 of the LGPD asks the communication to carry. */
export function incidentText(r: IncidentReport): string {
  const list = (rows: { label: string; accesses: number; accounts: number }[]) =>
    rows.length ? rows.map((g) => `  - ${g.label}: ${g.accesses} acesso(s), ${g.accounts} conta(s)`).join("\n") : "  (nenhum)";
  return [
    `Relatório de incidente — janela ${r.window.from} a ${r.window.to}${r.window.school ? `, escola "${r.window.school}"` : ""}`,
    "",
    `Acessos registrados: ${r.accesses}`,
    `Contas cujos dados foram abertos ou servidos: ${r.accountsAffected}`,
    `Crianças envolvidas (alunos distintos por conta): ${r.childrenAffected}`,
    "",
    "Por escola:",
    list(r.bySchool),
    "Por membro da equipe:",
    list(r.byStaff),
    "Por arquivo ou voucher:",
    list(r.byFile),
    "Contas:",
    r.accounts.length ? r.accounts.map((a) => `  - ${a.email ?? "(conta excluída)"} [${a.id}]: ${a.accesses} acesso(s), ${a.children} aluno(s)`).join("\n") : "  (nenhuma)",
    "",
    "Comunicação à ANPD e aos titulares (LGPD art. 48 § 1; Resolução CD/ANPD 15/2024, prazo de 3 dias úteis):",
    "  I - natureza dos dados pessoais afetados: comprovantes de matrícula (documento, nome do aluno, turma declarada), nome e e-mail do responsável, códigos de voucher e benefícios.",
    `  II - titulares envolvidos: ${r.accountsAffected} responsável(is) e ${r.childrenAffected} criança(s) ou adolescente(s) (dados de menores: art. 14).`,
    "  III - medidas técnicas e de segurança: registro imutável de cada acesso com identificador da requisição, endereços de arquivo assinados válidos por 1 hora, acesso da escola restrito aos comprovantes que a nomeiam, finalidade obrigatória para administradores.",
    "  IV - riscos relacionados ao incidente: (a preencher)",
    "  V - motivos da demora, se a comunicação não foi imediata: (a preencher)",
    "  VI - medidas adotadas ou a adotar para reverter ou mitigar os efeitos: (a preencher)",
    "",
    "Registre o incidente em /admin-escolas › Incidentes (guardado por 5 anos).",
  ].join("\n");
}
