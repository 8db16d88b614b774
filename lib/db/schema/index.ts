export * from "./catalog";
export * from "./accounts";
export * from "./auth";
export * from "./prices";
export * from "./usage";
export * from "./collection";
