export * from "./enums";
export * from "./reference";
export * from "./auth";
export * from "./schools";
export * from "./profiles";
export * from "./benefits";
export * from "./platform";
export * from "./verification";
