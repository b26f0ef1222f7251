export * from "./fields";
export * from "./auth";
export * from "./school";
export * from "./marketplace";
export * from "./admin";
export * from "./profile";
export * from "./apiTokens";
export * from "./contact";
