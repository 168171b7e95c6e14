export type Provider = "github" | "google";
export const isProvider = (p: unknown): p is Provider => p === "github" || p === "google";
export const providerLabel = (p: Provider) => (p === "github" ? "GitHub" : "Google");
