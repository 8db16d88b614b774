export * from "./catalog";
export * from "./accounts";
export * from "./auth";
