import { schema, type Database } from "@elo/db";
import { discountedFee, formatDate, normalizeKey, type DiscountScope, type DiscountValidity, type PlanType, type TeachingStage } from "@elo/shared";
import { and, eq, sql } from "drizzle-orm";
import { hashPassword } from "../auth/password";
import type { AppDeps } from "../deps";
import { demoLogo, simplePdf } from "./demo-files";

const PASSWORD = "EloDemo#2025";

interface DemoSchool {
  name: string;
  niche: string;
  modality: string;
  uf: string;
  city: string;
  neighborhood: string;
  plan?: PlanType;
  /** The logo tile's colour. */
  color: string;
  benefits: Array<{ className: string; stage: TeachingStage; pct: number; fee: number; slots: number; scope: DiscountScope; validity: DiscountValidity }>;
}

const SCHOOLS: DemoSchool[] = [
  { name: "Colégio Horizonte", color: "#1c7ed6", niche: "Ed. Básica", modality: "Ensino Fundamental I", uf: "SP", city: "São Paulo", neighborhood: "Pinheiros", plan: "silver", benefits: [
    { className: "1º ano - Fundamental", stage: "ensino_fundamental", pct: 15, fee: 2450, slots: 5, scope: "city", validity: "school_year" },
  ] },
  { name: "Fluent English School", color: "#e8590c", niche: "Idiomas", modality: "Inglês", uf: "SP", city: "São Paulo", neighborhood: "Pinheiros", plan: "gold", benefits: [
    { className: "Inglês Kids", stage: "iniciante", pct: 30, fee: 420, slots: 8, scope: "neighborhood", validity: "first_3_months" },
    { className: "Teens Conversation", stage: "intermediario", pct: 20, fee: 480, slots: 1, scope: "all_except_own", validity: "first_6_months" },
  ] },
  { name: "Clube Aquático Vila Mariana", color: "#1098ad", niche: "Clubes", modality: "Natação", uf: "SP", city: "São Paulo", neighborhood: "Vila Mariana", plan: "silver", benefits: [
    { className: "Natação Infantil", stage: "iniciante", pct: 25, fee: 310, slots: 12, scope: "city", validity: "first_2_months" },
  ] },
  { name: "CodeKids Robótica", color: "#7048e8", niche: "Tecnologia", modality: "Robótica", uf: "SP", city: "São Paulo", neighborhood: "Moema", plan: "silver", benefits: [
    { className: "Robótica com Lego", stage: "iniciante", pct: 40, fee: 390.5, slots: 6, scope: "all_except_own", validity: "first_month" },
  ] },
  { name: "Escola de Música Allegro", color: "#c2255c", niche: "Outros", modality: "Música", uf: "SP", city: "São Paulo", neighborhood: "Pinheiros", plan: "bronze", benefits: [
    { className: "Violão para crianças", stage: "iniciante", pct: 10, fee: 280, slots: 4, scope: "city", validity: "first_month" },
  ] },
  { name: "Instituto Carioca de Idiomas", color: "#2f9e44", niche: "Idiomas", modality: "Espanhol", uf: "RJ", city: "Rio de Janeiro", neighborhood: "Copacabana", plan: "gold", benefits: [
    { className: "Espanhol Básico", stage: "iniciante", pct: 35, fee: 350, slots: 10, scope: "all_except_own", validity: "first_4_months" },
  ] },
];

async function placeIds(db: Database, uf: string, city: string, neighborhood: string) {
  const [state] = await db.select({ id: schema.states.id }).from(schema.states).where(eq(schema.states.code, uf));
  const [cityRow] = await db.select({ id: schema.cities.id }).from(schema.cities).where(and(eq(schema.cities.stateId, state!.id), eq(schema.cities.name, city)));
  await db.insert(schema.neighborhoods).values({ name: neighborhood, cityId: cityRow!.id }).onConflictDoNothing();
  const [nb] = await db.select({ id: schema.neighborhoods.id }).from(schema.neighborhoods).where(and(eq(schema.neighborhoods.cityId, cityRow!.id), eq(schema.neighborhoods.name, neighborhood)));
  return { stateId: state!.id, cityId: cityRow!.id, neighborhoodId: nb!.id };
}

async function createUser(db: Database, email: string, passwordHash: string, profile: Partial<typeof schema.profiles.$inferInsert>) {
  // Demo accounts are confirmed: their addresses receive nothing.
  const [user] = await db.insert(schema.users).values({ email, passwordHash, emailConfirmedAt: new Date() }).returning({ id: schema.users.id });
  await db.insert(schema.profiles).values({ userId: user!.id, ...profile });
  await db.insert(schema.userConsents).values({ userId: user!.id, termsAccepted: true, privacyAccepted: true, dataProcessingConsent: true, marketingConsent: false, consentVersion: "1.0", userAgent: "demo" });
  return user!.id;
}

const PARENT = { fullName: "Ana Paula Ribeiro", studentName: "Lucas Ribeiro", studentBirthDate: "2016-03-14", school: "Colégio Horizonte" };

/** The demo parent's enrollment proof: a school declaration, as a parent would upload it. */
const proofPdf = () =>
  simplePdf("Declaração de Matrícula", [
    `Declaramos que ${PARENT.studentName}, nascido em ${formatDate(PARENT.studentBirthDate)},`,
    `está regularmente matriculado no ${PARENT.school},`,
    "no Ensino Fundamental, no ano letivo vigente.",
    "",
    `Responsável: ${PARENT.fullName}`,
    "",
    "Secretaria Escolar - documento de demonstração do Elo Escolar",
  ]);

/**
 * On an empty database, creates an admin, schools of every niche with plans, logos and benefits,
 * an approved school staff member and a parent with a complete profile and a stored proof (files
 * through the storage interface, so every screen shows what it shows in use). Returns their
 * logins, or null when the database already had users.
 */
export async function seedDemoWorld(deps: Pick<AppDeps, "db" | "storage">) {
  const { db, storage } = deps;
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.users);
  if (n > 0) return null;
  const passwordHash = await hashPassword(PASSWORD);
  const categories = await db.select().from(schema.categories);
  const modalities = await db.select().from(schema.modalities);
  const logos = await Promise.all(SCHOOLS.map((s) => demoLogo(s.niche, s.color)));

  return db.transaction(async (tx) => {
    const adminId = await createUser(tx, "admin@eloescolar.com.br", passwordHash, { profileType: "parent", fullName: "Administrador Elo" });
    await tx.insert(schema.userRoles).values({ userId: adminId, role: "admin" });

    const schoolIds = new Map<string, string>();
    for (const [i, s] of SCHOOLS.entries()) {
      const place = await placeIds(tx, s.uf, s.city, s.neighborhood);
      const category = categories.find((c) => c.name === s.niche)!;
      const modality = modalities.find((m) => m.categoryId === category.id && m.name === s.modality)!;
      const [school] = await tx
        .insert(schema.schools)
        .values({ name: s.name, nameKey: normalizeKey(s.name), uf: s.uf, city: s.city, neighborhood: s.neighborhood, ...place, categoryId: category.id, modalityId: modality.id, phone: "11987654321", whatsapp: "11987654321", address: "Rua Exemplo, 100", cep: "05422000", origin: "seed" })
        .returning({ id: schema.schools.id });
      schoolIds.set(s.name, school!.id);
      const logoKey = `${school!.id}/logo-demo.png`;
      await storage.put("school_logos", logoKey, logos[i]!, "image/png");
      await tx.update(schema.schools).set({ logoUrl: logoKey }).where(eq(schema.schools.id, school!.id));
      if (s.plan) await tx.insert(schema.subscriptions).values({ schoolId: school!.id, planType: s.plan });
      for (const b of s.benefits) {
        await tx.insert(schema.discounts).values({
          schoolId: school!.id, teachingStage: b.stage, categoryId: category.id, modalityId: modality.id, className: b.className,
          classPeriod: "tarde", discountScope: b.scope, monthlyFee: b.fee, discountPercentage: b.pct, discountedFee: discountedFee(b.fee, b.pct),
          discountValidity: b.validity, numberOfStudents: b.slots,
        });
      }
    }

    const staffId = await createUser(tx, "escola@eloescolar.com.br", passwordHash, {
      profileType: "institution", fullName: "Mariana Souza", phone: "11987654321", position: "Secretário(a)",
      schoolId: schoolIds.get("Fluent English School"), schoolName: "Fluent English School", state: "SP", city: "São Paulo", neighborhood: "Pinheiros",
    });
    await tx.insert(schema.schoolMemberships).values({ userId: staffId, schoolId: schoolIds.get("Fluent English School")!, position: "Secretário(a)", status: "approved", decidedAt: new Date(), decidedBy: adminId });

    const parentId = await createUser(tx, "pais@eloescolar.com.br", passwordHash, {
      profileType: "parent", fullName: PARENT.fullName, phone: "11991234567", relationshipType: "Mãe", state: "SP", city: "São Paulo", neighborhood: "Pinheiros",
      studentName: PARENT.studentName, studentBirthDate: PARENT.studentBirthDate, studentCpf: "52998224725", studentAddress: "Rua dos Pinheiros, 500", studentNeighborhood: "Pinheiros",
      studentZipCode: "05422001", schoolName: PARENT.school, schoolId: schoolIds.get(PARENT.school)!, profileCompleted: true,
    });
    const proofKey = `${parentId}/proof-demo.pdf`;
    await storage.put("enrollment_proofs", proofKey, proofPdf(), "application/pdf");
    await tx.update(schema.profiles).set({ enrollmentProofUrl: proofKey, enrollmentProofSubmitted: true }).where(eq(schema.profiles.userId, parentId));
    // Every proof is a row its school (or the administration) decides (decision 125): the demo's too, so
    // /admin-pais opens it like any other, with a stated purpose (decision 190).
    await tx.insert(schema.enrollmentProofs).values({ userId: parentId, schoolId: schoolIds.get(PARENT.school)!, fileKey: proofKey, studentName: PARENT.studentName });

    return {
      admin: { email: "admin@eloescolar.com.br", password: PASSWORD },
      escola: { email: "escola@eloescolar.com.br", password: PASSWORD },
      pais: { email: "pais@eloescolar.com.br", password: PASSWORD },
    };
  });
}
