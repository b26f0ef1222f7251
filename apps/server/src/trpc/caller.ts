import { appRouter } from "../routers/_app";
import { createCallerFactory } from "./init";

/** Calls procedures without HTTP: `createCaller(createContextInner({...})).auth.me()`. */
export const createCaller = createCallerFactory(appRouter);
