/** Types only: what the web app and the script client import from the server. */
export type { AppRouter } from "./routers/_app";
export type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
