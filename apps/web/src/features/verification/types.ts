import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../lib/trpc";

/** One row of 'Confirmar matrículas' (and of the admin's queue). */
export type ProofRow = inferRouterOutputs<AppRouter>["school"]["verifications"]["list"][number];
