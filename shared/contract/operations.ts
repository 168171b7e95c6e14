// Every API operation, one table (shared/contract/operation.ts says what an operation is): the
// router registers each exactly once (tests/integration/openapi.test.ts), the OpenAPI document is
// made of it, and the web's client calls through it.
import { accountBasicsOperations } from "./account-basics.ts";
import { adminOperations } from "./admin-operations.ts";
import { accountOperations } from "./accounts.ts";
import { catalogueOperations } from "./catalogue.ts";
import { debriefOperations } from "./debrief.ts";
import { deploymentOperations } from "./deployments.ts";
import { healthOperations } from "./health.ts";
import { personalTokenOperations } from "./personal-tokens.ts";
import { billingOperations } from "./plans.ts";
import { scoringOperations } from "./scoring.ts";
import { settingsOperations } from "./settings.ts";
import { twoFactorOperations } from "./twofactor.ts";

export const operations = {
  ...healthOperations,
  ...catalogueOperations,
  ...scoringOperations,
  ...deploymentOperations,
  ...accountOperations,
  ...twoFactorOperations,
  ...settingsOperations,
  ...personalTokenOperations,
  ...accountBasicsOperations,
  ...billingOperations,
  ...debriefOperations,
  ...adminOperations,
};
export type Operations = typeof operations;
export type OperationName = keyof Operations;
