import { describe, expect, it } from "vitest";
import { DEPLOYMENT_STATUSES } from "#shared/contract/deployments.ts";
import { canExtend, canStart, canTerminate } from "./status.ts";

describe("controls per status", () => {
  const table = {
    idle: [true, false, false],
    queued: [false, false, true],
    deploying: [false, false, true],
    setting_up: [false, false, true],
    ready: [false, true, true],
    resetting: [false, false, true],
    failed: [true, false, false],
    terminated: [true, false, false],
  } as const;
  it.each(DEPLOYMENT_STATUSES)("%s", (status) => {
    expect([canStart(status), canExtend(status), canTerminate(status)]).toEqual(table[status]);
  });
});
