export * from "./constants";
export * from "./validators";
export * from "./login-check";
export * from "./masks";
export * from "./format";
export * from "./messages/index";
export * from "./schemas/index";
export * from "./gender";
