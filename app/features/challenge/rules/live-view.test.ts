import { describe, expect, it } from "vitest";
import { iso, session, SSH } from "./fixtures.ts";
import { parseLiveMessage, reduceLive, viewFromDeployment as viewFromSession } from "./live-view.ts";
import { canStart } from "./status.ts";
import { deploymentFailedText } from "./texts.ts";

describe("message reducer", () => {
  const queued = viewFromSession(session());

  it("progress_update moves the status and the progress", () => {
    const v = reduceLive(queued, { type: "progress_update", deployment_id: "dep-1", status: "deploying", progress: 40, message: "starting container" });
    expect(v).toMatchObject({ status: "deploying", progress: 40, progressMessage: "starting container" });
    expect(reduceLive(v, { type: "progress_update", progress: 140 }).progress).toBe(100);
  });

  it("deployment_update sets status, expiry and ssh details", () => {
    const v = reduceLive(queued, {
      type: "deployment_update",
      deployment_id: "dep-1",
      status: "setting_up",
      expires_at: iso(60_000),
      ssh_details: null,
      error_message: null,
    });
    expect(v).toMatchObject({ status: "setting_up", expiresAt: iso(60_000), ssh: null });
    const r = reduceLive(v, { type: "deployment_update", status: "ready", ssh_details: SSH });
    expect(r).toMatchObject({ status: "ready", ssh: SSH, progress: 100 });
  });

  it("deployment_ready sets ready, expiry and ssh details", () => {
    const v = reduceLive(queued, { type: "deployment_ready", deployment_id: "dep-1", status: "ready", expires_at: iso(99_000), ssh_details: SSH });
    expect(v).toMatchObject({ status: "ready", expiresAt: iso(99_000), ssh: SSH, errorMessage: null });
  });

  it("keeps the gateway's host key fingerprint from the SSH details, and only a well-formed one", () => {
    const fingerprint = "SHA256:8zwBkxqGJ4l0tczzabz9dQaXbEq3Za4zI5FVKfz4UXg";
    const v = reduceLive(queued, { type: "deployment_ready", status: "ready", expires_at: iso(1), ssh_details: { ...SSH, host_key_fingerprint: fingerprint } });
    expect(v.ssh).toEqual({ ...SSH, host_key_fingerprint: fingerprint });
    const odd = reduceLive(queued, {
      type: "deployment_ready",
      status: "ready",
      expires_at: iso(1),
      ssh_details: { ...SSH, host_key_fingerprint: "<b>trust me</b>" },
    });
    expect(odd.ssh).toEqual(SSH);
  });

  it("deployment_error fails a deployment whose SSH details are not known yet", () => {
    const v = reduceLive(queued, { type: "deployment_error", deployment_id: "dep-1", status: "failed", error: "image missing" });
    expect(v).toMatchObject({ status: "failed", errorMessage: "image missing", warning: null });
    expect(deploymentFailedText(v.errorMessage)).toBe("Deployment failed. image missing");
  });

  it("deployment_error after SSH details only warns that the container is still accessible", () => {
    const ready = reduceLive(queued, { type: "deployment_ready", ssh_details: SSH, expires_at: iso(1) });
    const v = reduceLive(ready, { type: "deployment_error", error: "log stream lost" });
    expect(v.status).toBe("ready");
    expect(v.ssh).toEqual(SSH);
    expect(v.warning).toMatch(/log stream lost\. .*still accessible/);
  });

  it("a deployment the server marks failed after ready shows the failure, not the warning", () => {
    const ready = reduceLive(queued, { type: "deployment_ready", ssh_details: SSH, expires_at: iso(1) });
    const failed = reduceLive(ready, { type: "deployment_update", status: "failed", ssh_details: SSH, error_message: "The environment stopped unexpectedly." });
    expect(failed).toMatchObject({ status: "failed", ssh: null, errorMessage: "The environment stopped unexpectedly." });
    const after = reduceLive(failed, { type: "deployment_error", status: "failed", error: "The environment stopped unexpectedly." });
    expect(after).toMatchObject({ status: "failed", warning: null, errorMessage: "The environment stopped unexpectedly." });
  });

  it("deployment_logs appends lines (bounded)", () => {
    let v = reduceLive(queued, { type: "deployment_logs", line: "pulling" });
    v = reduceLive(v, { type: "deployment_logs", line: "started" });
    expect(v.logs).toEqual(["pulling", "started"]);
    for (let i = 0; i < 300; i++) v = reduceLive(v, { type: "deployment_logs", line: `l${i}` });
    expect(v.logs).toHaveLength(200);
    expect(v.logs.at(-1)).toBe("l299");
  });

  it("legacy messages that only carry a status are accepted", () => {
    const m = parseLiveMessage(JSON.stringify({ status: "deploying" }));
    expect(m).toEqual({ status: "deploying" });
    expect(reduceLive(queued, m!).status).toBe("deploying");
    expect(parseLiveMessage(JSON.stringify({ type: "something_else", status: "ready" }))).toEqual({ status: "ready" });
  });

  it("ignores garbage and unknown messages", () => {
    expect(parseLiveMessage("{not json")).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ type: "hello" }))).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ status: "exploded" }))).toBeNull();
    expect(parseLiveMessage("[1,2]")).toBeNull();
  });

  it("terminated clears the timer, the ssh details and the deployment", () => {
    const ready = reduceLive(queued, { type: "deployment_ready", ssh_details: SSH, expires_at: iso(1) });
    const v = reduceLive(ready, { type: "deployment_update", status: "terminated" });
    expect(v).toMatchObject({ status: "terminated", deploymentId: null, expiresAt: null, ssh: null });
    expect(canStart(v.status)).toBe(true);
  });

  it("ignores messages about another deployment", () => {
    const v = reduceLive(queued, { type: "deployment_update", deployment_id: "dep-OLD", status: "terminated" });
    expect(v).toBe(queued);
  });

  it("an idle session from the API is an empty view", () => {
    const v = viewFromSession({ deployment_id: null, status: "idle", expires_at: null, ssh_details: null, websocket_url: null, error_message: null });
    expect(v).toMatchObject({ status: "idle", deploymentId: null, ssh: null });
    expect(viewFromSession(null).status).toBe("idle");
  });
});
