import type { trpcClient } from "../../lib/trpc";

type Api = typeof trpcClient.admin;
export type AdminSchool = Awaited<ReturnType<Api["schools"]["list"]["query"]>>["items"][number];
export type CsvPreview = Awaited<ReturnType<Api["csv"]["preview"]["mutate"]>>;
export type CsvPreviewRow = CsvPreview["rows"][number];
export type PendingMembership = Awaited<ReturnType<Api["memberships"]["pending"]["query"]>>[number];
export type AdminParent = Awaited<ReturnType<Api["parents"]["list"]["query"]>>["items"][number];
