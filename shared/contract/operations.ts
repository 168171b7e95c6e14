// Every API operation, one table (shared/contract/operation.ts says what an operation is): the
// router registers each exactly once (tests/integration/openapi.test.ts), the OpenAPI document is
// made of it, and the web's client calls through it.
import { catalogueOperations } from "./catalogue.ts";
import { deploymentOperations } from "./deployments.ts";
import { healthOperations } from "./health.ts";
import { scoringOperations } from "./scoring.ts";

export const operations = {
  ...healthOperations,
  ...catalogueOperations,
  ...scoringOperations,
  ...deploymentOperations,
};
export type Operations = typeof operations;
export type OperationName = keyof Operations;
