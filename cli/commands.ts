// The commands (`faultline --help`, README.md "Command line"). Each answers what --json prints
// and what a person reads, or throws a CliError (./errors.ts) that main.ts turns into a message
// and an exit code. Only `start` runs another program: the real ssh, with the terminal, and
// nothing secret on its command line (ssh authenticates with the player's own key).
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { z } from "zod";
import { catalogueOperations, challengeListQuery, MAX_LIST_LIMIT, type ListedChallenge } from "#shared/contract/catalogue.ts";
import { challengeIdParam, submitBody } from "#shared/contract/inputs.ts";
import { deploymentOperations, isActiveStatus, type ChallengeDeployment, type SshConfig, type SshDetails } from "#shared/contract/deployments.ts";
import { personalTokenOperations, type CurrentPersonalToken } from "#shared/contract/personal-tokens.ts";
import { createApi, type Api } from "./api.ts";
import { checkTokenShape, configPath, DEFAULT_URL, normaliseUrl, readLogin, removeLogin, writeBeside, writeLogin } from "./config.ts";
import { CliError, echo, EXIT } from "./errors.ts";

/** What a command gives back: the --json document, the text for people, the exit code. */
export interface Outcome {
  json: unknown;
  text: string;
  /** An ExitCode, or ssh's own status once `start` ran it. */
  code?: number;
}

export interface Io {
  env: NodeJS.ProcessEnv;
  json: boolean;
  /** A progress line (stderr; rewritten in place on a terminal). */
  progress(line: string): void;
  /** A message for people (stderr). */
  note(line: string): void;
  /** All of stdin as text. */
  readStdin(): Promise<string>;
}

/** What ssh assumes when the API leaves port or user out (shared/contract/deployments.ts). */
const DEFAULT_SSH_PORT = 22;
const DEFAULT_SSH_USER = "ubuntu";
/** A check may boot a copy of the disk (after_reboot): give a submission time. */
const SUBMIT_TIMEOUT_MS = 10 * 60_000;
const POLL_MS = 1000;

/** Input checked with the contract's own schema before it is sent: a refusal is a usage error,
 *  worded as the API would word it (`field: what is wrong`). */
function checked<S extends z.ZodType>(schema: S, input: unknown, flag: (field: string) => string = (f) => f): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new CliError(EXIT.usage, parsed.error.issues.map((i) => `${flag(i.path.join("."))}: ${i.message}`).join("; "));
}

/** A challenge's id as typed, checked as the API would. */
const challengeId = (slug: string) => checked(challengeIdParam, slug, () => `"${echo(slug)}"`);

const when = (epochSeconds: number | null) => (epochSeconds === null ? "never" : new Date(epochSeconds * 1000).toISOString().replace(/\.\d+Z$/, "Z"));

function loggedIn(io: Io, opts: { timeoutMs?: number } = {}): Api {
  const login = readLogin(io.env);
  if (!login)
    throw new CliError(
      EXIT.unauthenticated,
      "Not logged in: run `faultline login --token flt_...` with a personal API token (Settings, Security, API tokens).",
    );
  return createApi(login.url, login.token, opts);
}

const describeToken = (t: CurrentPersonalToken) => `as ${t.username} with token "${t.name}" (scope ${t.scope}, expires ${when(t.expires_at)})`;

export async function login(io: Io, opts: { token?: string; url?: string }): Promise<Outcome> {
  if (opts.token === undefined) throw new CliError(EXIT.usage, "login needs --token flt_... (or --token - to read it from stdin)");
  const token = checkTokenShape(opts.token === "-" ? ((await io.readStdin()).split(/\r?\n/)[0] ?? "") : opts.token);
  let previous: string | undefined;
  try {
    previous = readLogin({ ...io.env, FAULTLINE_TOKEN: undefined })?.url;
  } catch {
    // an unreadable old login is simply replaced
  }
  const url = normaliseUrl(opts.url ?? io.env.FAULTLINE_URL ?? previous ?? DEFAULT_URL);
  // The token is checked before anything is stored: a wrong one leaves the old login in place.
  const current = await createApi(url, token).call(personalTokenOperations.getCurrentPersonalToken);
  const path = writeLogin({ url, token }, io.env);
  return {
    json: { url, token: current, config: path },
    text: `Logged in to ${url} ${describeToken(current)}.\nStored in ${path} (readable only by you).`,
  };
}

export function logout(io: Io): Outcome {
  const path = configPath(io.env);
  const removed = removeLogin(io.env);
  return {
    json: { logged_out: removed, config: path },
    text: removed
      ? `Logged out: the token stored in ${path} is forgotten. It still works until it expires or is revoked (Settings, Security, API tokens).`
      : "Not logged in: nothing to forget.",
  };
}

export async function challenges(io: Io, opts: { category?: string; difficulty?: string; search?: string }): Promise<Outcome> {
  checked(challengeListQuery, opts, (field) => `--${field}`);
  const api = loggedIn(io);
  const all: ListedChallenge[] = [];
  let total = 0;
  for (let page = 1; page <= 100; page++) {
    const list = await api.call(catalogueOperations.listChallenges, { query: { ...opts, limit: MAX_LIST_LIMIT, page } });
    total = list.total;
    all.push(...list.challenges);
    if (list.challenges.length === 0 || all.length >= total) break;
  }
  const rows = all.map((c) => [c.id, c.difficulty_level, c.category, String(c.points), c.progress ?? "", c.title]);
  const widths = [0, 1, 2, 3, 4].map((i) =>
    Math.max(...[["CHALLENGE", "DIFFICULTY", "CATEGORY", "POINTS", "PROGRESS"][i]!.length, ...rows.map((r) => r[i]!.length)]),
  );
  const line = (r: string[]) => r.map((cell, i) => (i < 5 ? cell.padEnd(widths[i]!) : cell)).join("  ");
  return {
    json: { challenges: all, total },
    text:
      all.length === 0 ? "No challenges match." : [line(["CHALLENGE", "DIFFICULTY", "CATEGORY", "POINTS", "PROGRESS", "TITLE"]), ...rows.map(line)].join("\n"),
  };
}

/** `ssh` and its arguments for a ready deployment; with the gateway's host key pinned when the
 *  API gave it for the same address (no first-connection question, no blind trust). */
function sshArgv(details: SshDetails, knownHosts: string | null): string[] {
  const port = details.ssh_port || DEFAULT_SSH_PORT;
  const pin = knownHosts ? ["-o", `UserKnownHostsFile=${knownHosts}`, "-o", "StrictHostKeyChecking=yes"] : [];
  return ["-p", String(port), ...pin, `${details.ssh_user || DEFAULT_SSH_USER}@${details.ssh_host}`];
}

/** A word as a POSIX shell reads it back. */
const shellQuote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);
export const shellCommand = (argv: string[]) => argv.map(shellQuote).join(" ");

async function gatewayKnownHosts(api: Api, details: SshDetails, io: Io): Promise<string | null> {
  let config: SshConfig;
  try {
    config = await api.call(deploymentOperations.getSshConfig);
  } catch (e) {
    if (e instanceof CliError && e.code !== EXIT.unreachable) return null;
    throw e;
  }
  if (config.ssh_host !== details.ssh_host || config.ssh_port !== (details.ssh_port || DEFAULT_SSH_PORT)) return null;
  return writeBeside("known_hosts", `${config.known_hosts}\n`, io.env);
}

function deploymentJson(d: ChallengeDeployment, slug: string) {
  return {
    deployment_id: d.deployment_id,
    challenge_id: d.challenge_id ?? slug,
    status: d.status,
    expires_at: d.expires_at,
    ready_at: d.ready_at ?? null,
    ssh_details: d.ssh_details,
    error_message: d.error_message,
  };
}

export async function start(io: Io, slug: string, opts: { noSsh: boolean; timeoutSeconds: number }): Promise<Outcome> {
  const params = { id: challengeId(slug) };
  const api = loggedIn(io);
  try {
    await api.call(deploymentOperations.startDeployment, { params });
    io.note(`Starting ${slug}...`);
  } catch (e) {
    // Already running (409): take the running deployment of this challenge, if that is what it is.
    if (!(e instanceof CliError && e.extra.status === 409)) throw e;
    const running = await api.call(deploymentOperations.getChallengeDeployment, { params });
    if (!isActiveStatus(running.status)) throw e;
    io.note(`${slug} is already running: using that deployment.`);
  }
  const started = Date.now();
  let d: ChallengeDeployment;
  for (;;) {
    d = await api.call(deploymentOperations.getChallengeDeployment, { params });
    const seconds = Math.round((Date.now() - started) / 1000);
    if (d.status === "ready" && d.ssh_details) break;
    if (d.status === "failed") throw new CliError(EXIT.refused, `The deployment of ${slug} failed${d.error_message ? `: ${d.error_message}` : "."}`);
    if (!isActiveStatus(d.status)) throw new CliError(EXIT.refused, `The deployment of ${slug} ended (${d.status}) before it was ready.`);
    if (seconds >= opts.timeoutSeconds) {
      throw new CliError(EXIT.unreachable, `The deployment of ${slug} is still ${d.status} after ${opts.timeoutSeconds} seconds; see \`faultline status\`.`);
    }
    io.progress(`${slug}: ${d.status.replace("_", " ")} (${seconds} s)`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  io.progress(`${slug}: ready (${Math.round((Date.now() - started) / 1000)} s)`);
  const knownHosts = await gatewayKnownHosts(api, d.ssh_details!, io);
  const argv = sshArgv(d.ssh_details!, knownHosts);
  const command = shellCommand(["ssh", ...argv]);
  const view = { ...deploymentJson(d, slug), ssh_command: command, ssh_argv: ["ssh", ...argv] };
  if (opts.noSsh || io.json) return { json: view, text: command };
  io.note(`Expires at ${d.expires_at}. Running: ${command}`);
  const code = await runSsh(argv);
  return { json: null, text: "", code };
}

/** The real ssh with this terminal; the command ends with ssh's exit status. */
function runSsh(argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("ssh", argv, { stdio: "inherit" });
    // The terminal's Ctrl-C belongs to the remote shell (ssh holds the terminal in raw mode); a
    // signal sent to this process alone is passed on, so ssh can end its connection cleanly.
    const pass = (signal: NodeJS.Signals) => () => child.kill(signal);
    const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((s) => [s, pass(s)] as const);
    for (const [s, h] of handlers) process.on(s, h);
    child.on("error", (e: NodeJS.ErrnoException) =>
      reject(
        new CliError(EXIT.refused, e.code === "ENOENT" ? "ssh is not installed (OpenSSH's client is needed); try --no-ssh" : `ssh did not start: ${e.message}`),
      ),
    );
    child.on("exit", (code, signal) => {
      for (const [s, h] of handlers) process.off(s, h);
      // As a shell reports it: the status, or 128 + the signal's number.
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}

export async function submit(io: Io, slug: string, answer: string): Promise<Outcome> {
  const id = challengeId(slug);
  const api = loggedIn(io, { timeoutMs: SUBMIT_TIMEOUT_MS });
  const body = checked(submitBody, { solution: answer === "-" ? await io.readStdin() : answer }, () => "The answer");
  const result = await api.call(deploymentOperations.submitAnswer, { params: { id }, body });
  const lines = [result.is_correct ? (result.already_solved ? "Correct (already solved before)." : "Correct!") : "Not solved yet.", result.feedback];
  if (result.is_correct && result.points_awarded > 0)
    lines.push(`+${result.points_awarded} points (total ${result.total_points}${result.rank ? `, rank ${result.rank} of ${result.ranked_users}` : ""})`);
  for (const a of result.achievements_unlocked) lines.push(`Achievement unlocked: ${a.title}`);
  return { json: result, text: lines.filter(Boolean).join("\n"), code: result.is_correct ? EXIT.ok : EXIT.refused };
}

export async function status(io: Io): Promise<Outcome> {
  const api = loggedIn(io);
  const token = await api.call(personalTokenOperations.getCurrentPersonalToken);
  const active = await api.call(deploymentOperations.getActiveDeployment);
  let deployment: (ReturnType<typeof deploymentJson> & { challenge_title: string }) | null = null;
  let ssh: string | null = null;
  if (active.active_session) {
    const slug = active.active_session.challenge_id;
    const d = await api.call(deploymentOperations.getChallengeDeployment, { params: { id: slug } });
    deployment = { ...deploymentJson(d, slug), challenge_title: active.active_session.challenge_title };
    if (d.status === "ready" && d.ssh_details) ssh = shellCommand(["ssh", ...sshArgv(d.ssh_details, null)]);
  }
  const lines = [`Logged in to ${api.url} ${describeToken(token)}.`];
  if (!active.active_session) lines.push("No deployment running.");
  else {
    const a = active.active_session;
    lines.push(`Deployment of ${a.challenge_id} (${a.challenge_title}): ${a.status}, expires ${a.expires_at ?? "-"}.`);
    if (ssh) lines.push(`Connect: ${ssh}   (or: faultline start ${a.challenge_id})`);
  }
  return { json: { url: api.url, token, deployment }, text: lines.join("\n") };
}

export async function terminate(io: Io, slug: string | undefined): Promise<Outcome> {
  let id = slug === undefined ? undefined : challengeId(slug);
  const api = loggedIn(io);
  if (!id) {
    const active = await api.call(deploymentOperations.getActiveDeployment);
    if (!active.active_session) throw new CliError(EXIT.notFound, "No deployment running.");
    id = active.active_session.challenge_id;
  }
  const done = await api.call(deploymentOperations.terminateDeployment, { params: { id } });
  return { json: { ...done, challenge_id: id }, text: `${done.message} (${id}).` };
}
