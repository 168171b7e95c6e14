// The challenge page's user-visible texts: the error wording users see on this page, word
// for word (texts.test.ts pins each one). Sentences the API says too live in shared/rules.ts.
import { NO_ACTIVE_DEPLOYMENT, VALIDATION_FAILED_DEFAULT, VERIFY_TO_START } from "#shared/rules.ts";
import { AUTH_REQUIRED } from "./reconnect.ts";

export const TEXT = {
  verificationRequired: VERIFY_TO_START,
  noDeployment: NO_ACTIVE_DEPLOYMENT,
  loadFailed: "Failed to load challenge",
  returnToChallenges: "Return to challenges",
  startFailed: "Failed to start challenge",
  extendFailed: "Failed to extend session",
  terminateFailed: "Failed to terminate session",
  submitFailed: "Failed to submit solution",
  validationFailed: "Validation Failed",
  validationDefault: VALIDATION_FAILED_DEFAULT,
  tryAgain: "Please fix the issue and try submitting again.",
  deploymentFailed: "Deployment failed.",
  authRequired: AUTH_REQUIRED,
} as const;

const clean = (detail: string | null | undefined) => (typeof detail === "string" && detail.trim() ? detail.trim() : null);

/** Challenge load failure: the detail, or 'Failed to load challenge'. */
export const loadErrorText = (detail?: string | null) => clean(detail) ?? TEXT.loadFailed;
/** Start failure: the detail, or 'Failed to start challenge'. */
export const startErrorText = (detail?: string | null) => clean(detail) ?? TEXT.startFailed;
/** Extend failure: 'Extend failed: ' plus the detail, or 'Failed to extend session'. */
export const extendErrorText = (detail?: string | null) => {
  const d = clean(detail);
  return d ? `Extend failed: ${d}` : TEXT.extendFailed;
};
/** Terminate failure: 'Terminate failed: ' plus the detail, or 'Failed to terminate session'. */
export const terminateErrorText = (detail?: string | null) => {
  const d = clean(detail);
  return d ? `Terminate failed: ${d}` : TEXT.terminateFailed;
};
/** Submit failure: the detail, or 'Failed to submit solution'. */
export const submitErrorText = (detail?: string | null) => clean(detail) ?? TEXT.submitFailed;
/** The feedback under 'Validation Failed': the grader's, or VALIDATION_FAILED_DEFAULT. */
export const wrongAnswerFeedback = (feedback?: string | null) => clean(feedback) ?? TEXT.validationDefault;
/** The failure banner: 'Deployment failed.' plus the error. */
export const deploymentFailedText = (error?: string | null) => {
  const e = clean(error);
  return e ? `${TEXT.deploymentFailed} ${e}` : TEXT.deploymentFailed;
};
