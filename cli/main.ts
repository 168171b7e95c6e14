// `faultline`, the player CLI (issue 25; README.md "Command line"; `faultline --help`): log in
// with a personal API token, list challenges, start a deployment and ssh into it, submit an
// answer, see and end the deployment. It talks to `/api/v1` over HTTP (./api.ts) with the
// contract's operations and schemas (shared/contract/); it imports nothing of the server or the
// web (eslint.config.js). With --json, stdout holds one JSON document and nothing else.
import { parseArgs } from "node:util";
import * as commands from "./commands.ts";
import { CliError, echo, EXIT } from "./errors.ts";
import { USAGE } from "./usage.ts";

/** Each command's options and how many words follow it (at least, at most). */
const COMMANDS: Record<string, { options: string[]; args: [number, number]; usage: string }> = {
  login: { options: ["token", "url"], args: [0, 0], usage: "faultline login --token <flt_...|-> [--url URL]" },
  logout: { options: [], args: [0, 0], usage: "faultline logout" },
  challenges: { options: ["category", "difficulty", "search"], args: [0, 0], usage: "faultline challenges [--category C] [--difficulty D] [--search S]" },
  start: { options: ["no-ssh", "timeout"], args: [1, 1], usage: "faultline start <challenge> [--no-ssh] [--timeout SECONDS]" },
  submit: { options: [], args: [2, 2], usage: "faultline submit <challenge> <answer|->" },
  status: { options: [], args: [0, 0], usage: "faultline status" },
  terminate: { options: [], args: [0, 1], usage: "faultline terminate [<challenge>]" },
};

const OPTIONS = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  token: { type: "string" },
  url: { type: "string" },
  category: { type: "string" },
  difficulty: { type: "string" },
  search: { type: "string" },
  "no-ssh": { type: "boolean" },
  timeout: { type: "string" },
} as const;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function run(argv: string[], json: { value: boolean }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    // node's messages name the option, never a value.
    throw new CliError(EXIT.usage, `${e instanceof Error ? e.message.split("\n")[0] : String(e)}\nSee faultline --help.`);
  }
  const { values, positionals } = parsed;
  json.value = values.json === true;
  if (values.help) {
    process.stdout.write(USAGE);
    return EXIT.ok;
  }
  const [name, ...args] = positionals;
  if (!name) throw new CliError(EXIT.usage, `No command given.\n\n${USAGE}`);
  const spec = COMMANDS[name];
  if (!spec) throw new CliError(EXIT.usage, `Unknown command: ${echo(name)}. See faultline --help.`);
  const given = Object.keys(values).filter((k) => k !== "json" && k !== "help");
  const stray = given.find((k) => !spec.options.includes(k));
  if (stray) throw new CliError(EXIT.usage, `${name} takes no --${stray}. Usage: ${spec.usage}`);
  if (args.length < spec.args[0] || args.length > spec.args[1]) throw new CliError(EXIT.usage, `Usage: ${spec.usage}`);

  const stderr = process.stderr;
  let progressShown = false;
  let lastProgress = "";
  const io: commands.Io = {
    env: process.env,
    json: json.value,
    // On a terminal one line, rewritten as it goes; elsewhere (a log, a pipe) a line per change.
    progress(line) {
      if (stderr.isTTY) {
        stderr.write(`\r\x1b[K${line}`);
        progressShown = true;
        return;
      }
      const gist = line.replace(/ \(\d+ s\)$/, "");
      if (gist !== lastProgress) stderr.write(`${line}\n`);
      lastProgress = gist;
    },
    note(line) {
      if (progressShown) stderr.write("\n");
      progressShown = false;
      stderr.write(`${line}\n`);
    },
    readStdin,
  };

  let outcome: commands.Outcome;
  try {
    switch (name) {
      case "login":
        outcome = await commands.login(io, { token: values.token, url: values.url });
        break;
      case "logout":
        outcome = commands.logout(io);
        break;
      case "challenges":
        outcome = await commands.challenges(io, { category: values.category, difficulty: values.difficulty, search: values.search });
        break;
      case "start": {
        const timeoutSeconds = values.timeout === undefined ? 300 : Number(values.timeout);
        if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1) throw new CliError(EXIT.usage, "--timeout takes a whole number of seconds (at least 1).");
        outcome = await commands.start(io, args[0]!, { noSsh: values["no-ssh"] === true, timeoutSeconds });
        break;
      }
      case "submit":
        outcome = await commands.submit(io, args[0]!, args[1]!);
        break;
      case "status":
        outcome = await commands.status(io);
        break;
      default:
        outcome = await commands.terminate(io, args[0]);
    }
  } finally {
    if (progressShown) stderr.write("\n");
  }
  if (outcome.json !== null || outcome.text) {
    if (json.value) process.stdout.write(`${JSON.stringify(outcome.json, null, 2)}\n`);
    else if (outcome.text) process.stdout.write(`${outcome.text}\n`);
  }
  return outcome.code ?? EXIT.ok;
}

const json = { value: process.argv.includes("--json") };
let code: number;
try {
  code = await run(process.argv.slice(2), json);
} catch (e) {
  const error = e instanceof CliError ? e : new CliError(EXIT.unreachable, `Unexpected failure: ${e instanceof Error ? e.message : String(e)}`);
  process.stderr.write(`faultline: ${error.message}\n`);
  if (json.value) process.stdout.write(`${JSON.stringify({ error: { exit_code: error.code, detail: error.message, ...error.extra } })}\n`);
  code = error.code;
}
process.exitCode = code;
