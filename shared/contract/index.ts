// The contract between the web (app/) and the API (server/): every JSON shape and enum the two
// exchange, one file per area. A leaf like the rest of shared/: it imports nothing from app/ or
// server/ (docs/architecture.md has the layers and the lint rules that keep them).
export * from "./accounts.ts";
export * from "./account-basics.ts";
export * from "./catalogue.ts";
export * from "./debrief.ts";
export * from "./deployments.ts";
export * from "./gateway.ts";
export * from "./health.ts";
export * from "./personal-tokens.ts";
export * from "./plans.ts";
export * from "./scoring.ts";
export * from "./settings.ts";
