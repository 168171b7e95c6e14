// Vitest globalSetup: one throwaway PostgreSQL cluster for the whole run. Its URL reaches the
// test files through provide/inject ("postgresUrl"); each file makes its own database on it
// (tests/support/platform.ts), so files run in parallel without sharing rows. If PostgreSQL
// cannot start, this throws and the run fails: the PostgreSQL half is never skipped quietly.
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  let pg;
  try {
    pg = await startPostgres();
  } catch (e) {
    throw new Error(`Could not start the test PostgreSQL (the API tests run against SQLite AND PostgreSQL):\n${e instanceof Error ? e.message : e}`);
  }
  project.provide("postgresUrl", pg.url);
  return async () => {
    await pg.stop();
  };
}
