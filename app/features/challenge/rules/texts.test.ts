import { describe, expect, it } from "vitest";
import {
  deploymentFailedText,
  extendErrorText,
  loadErrorText,
  startErrorText,
  submitErrorText,
  terminateErrorText,
  TEXT,
  wrongAnswerFeedback,
} from "./texts.ts";

describe("the challenge page's error texts", () => {
  it("load failure: the detail, or 'Failed to load challenge'", () => {
    expect(loadErrorText("database is down")).toBe("database is down");
    expect(loadErrorText("")).toBe("Failed to load challenge");
    expect(loadErrorText(undefined)).toBe("Failed to load challenge");
    expect(TEXT.returnToChallenges).toBe("Return to challenges");
  });
  it("start failure: the detail, or 'Failed to start challenge'", () => {
    expect(startErrorText("You already have an active deployment")).toBe("You already have an active deployment");
    expect(startErrorText(null)).toBe("Failed to start challenge");
  });
  it("unverified user: the verification text", () => {
    expect(TEXT.verificationRequired).toBe("Email verification required to start challenges. Please check your email and verify your account.");
  });
  it("extend failure: 'Extend failed: ' plus the detail, or 'Failed to extend session'", () => {
    expect(extendErrorText("Maximum extensions reached")).toBe("Extend failed: Maximum extensions reached");
    expect(extendErrorText("")).toBe("Failed to extend session");
  });
  it("terminate failure: 'Terminate failed: ' plus the detail, or 'Failed to terminate session'", () => {
    expect(terminateErrorText("No active deployment")).toBe("Terminate failed: No active deployment");
    expect(terminateErrorText(undefined)).toBe("Failed to terminate session");
  });
  it("submit failure: the detail, or 'Failed to submit solution'", () => {
    expect(submitErrorText(TEXT.noDeployment)).toBe("No active deployment found. Please start the challenge first.");
    expect(submitErrorText("  ")).toBe("Failed to submit solution");
  });
  it("wrong answer: 'Validation Failed' with the feedback or the default", () => {
    expect(TEXT.validationFailed).toBe("Validation Failed");
    expect(wrongAnswerFeedback("nginx still returns 502")).toBe("nginx still returns 502");
    expect(wrongAnswerFeedback("")).toBe("Challenge validation failed. Please check your solution and try again.");
    expect(TEXT.tryAgain).toBe("Please fix the issue and try submitting again.");
  });
  it("deployment failed: 'Deployment failed.' plus the error", () => {
    expect(deploymentFailedText("no capacity")).toBe("Deployment failed. no capacity");
    expect(deploymentFailedText(null)).toBe("Deployment failed.");
  });
  it("live channel without a token: 'Authentication required'", () => {
    expect(TEXT.authRequired).toBe("Authentication required");
  });
});
