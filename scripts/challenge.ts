// Authoring tool: `npm run challenge -- new <slug>` scaffolds a challenge folder;
// `npm run challenge -- prove <slug>` builds its image and proves it through the real platform
// (scripts/prove.ts): the check fails on a fresh deployment, the reference solution run through
// the SSH gateway with OpenSSH fixes it, the check passes, and each fake is refused.
// The rules a challenge follows: challenges/README.md.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHALLENGES_DIR, loadChallenge } from "#server/library/challenges.ts";
import { startTestServer } from "../tests/support/server.ts";
import { playerPool, prove } from "./prove.ts";

const [command, slug] = process.argv.slice(2);
const dir = process.env.CHALLENGES_DIR ?? CHALLENGES_DIR;

function usage(): never {
  console.error("usage: npm run challenge -- new <slug> | prove <slug>   (slug: lower-case words and dashes)");
  process.exit(2);
}
if (!slug || !/^[a-z0-9][a-z0-9-]{2,60}$/.test(slug)) usage();

const TEMPLATE: Record<string, string> = {
  "challenge.yaml": `title: "A short title that names the symptom"
category: linux            # linux | networking | storage | security
difficulty: easy           # easy 100 | medium 250 | hard 500 | expert 1000 points
points: 100
estimated_time_minutes: 15
short_description: >-
  One or two sentences for the catalogue card: what users see.
description: |
  The incident as on-call hears of it: what broke, what users see, what is asked.

  The goal, stated so a player knows when they are done.
instructions: |
  - You are root on box. Services are managed with \`service NAME start|stop|status\`.
  - When it works, describe what was wrong and how you fixed it, then submit.
hints:
  - "A gentle nudge: where to look first."
  - "A stronger one: which tool tells you."
tags: [linux]
badge: new
incident_note: >-
  One line on the real-world pattern this is modelled on.
runtime:
  hostname: box
check:
  timeout_seconds: 20
variants: []               # the faults setup.sh can pick (FAULTLINE_FAULT forces one)
# When the story asks a question, what the written answer must name (judged by the platform):
# answer:
#   - name: culprit
#     says: the process that held the port
#     kind: process
#     value: culprit           # the value of setup.sh holding the right one
#     candidates: {values: processes}   # a value listing every candidate (or {pattern: number})
# Classes of fake that cannot apply here, each with the reason (the others need fakes/<class>-*.sh):
not_applicable_fakes:
  acl: "no file's permissions are judged: the fault is in a configuration's content"
  sparse: "nothing must stay unreadable: there is no secret in this story"
`,
  Dockerfile: `FROM faultline/base:latest
# Programs the check trusts live in the read-only system (/usr/sbin, /usr/bin, /usr/lib), never /usr/local.
# Services start at boot (the grader boots a copy of the deployment: rcS.d, rc2.d, rc.local).
RUN apt-get update -qq \\
 && apt-get install -y -qq --no-install-recommends nginx-light >/dev/null \\
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/log/apt/* /var/log/dpkg.log \\
 && update-rc.d nginx defaults
`,
  "setup.sh": `#!/bin/bash
# Injects the fault when a deployment starts (root, inside the deployment, fed on stdin: never
# stored there). Randomise what you can; print the values the check needs as JSON, last line.
set -euo pipefail
secret=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \\n')
printf '{"secret":"%s"}\\n' "$secret"
`,
  "check.sh": `#!/bin/bash
# Grading: runs in the grader beside the target (docs/decisions/008-grading-threat-model.md),
# never inside it, live (FL_PHASE=live) and on a booted copy of its disk (FL_PHASE=boot). What
# the clients see (from the grader), who answers (fl service), what was repaired (fl pristine,
# inspect.sh). No value of the deployment in a command line: fl takes @NAME, curl takes fetch.
# Exit 0 = fixed; stdout = feedback. See challenges/README.md.
body=$(fetch "http://$FL_TARGET/" -sS --max-time 5 2>&1) || refuse "Nothing answers at http://$FL_TARGET/ yet."
pids=$(fl service 80 /usr/sbin/nginx --argv '["nginx: master process /usr/sbin/nginx"]' --argv '["nginx: worker process"]') || refuse "$pids"
echo "It works."
`,
  "solution.sh": `#!/bin/bash
# Reference fix, as a person would find it (no FL_* values). For a challenge that asks a
# question, the last line is: ANSWER: <the written answer>
set -uo pipefail
service nginx start
`,
  "fakes/standin.sh": `#!/bin/bash
# Fake: a stand-in answering on the port the check observes, while the fault stays.
setsid python3 -m http.server 80 </dev/null >/dev/null 2>&1 &
sleep 1
`,
  "fakes/boot-live-only.sh": `#!/bin/bash
# Fake (class boot): the running system fixed by hand, the boot configuration left as it was.
nginx -c /etc/nginx/nginx.conf
`,
  "fakes/comment-hidden.sh": `#!/bin/bash
# Fake (class comment): what the program obeys, hidden where a naive comparison sees a comment.
sed -i 's/^\\(\\s*\\)root /\\1root #/' /etc/nginx/sites-available/default
`,
  "fakes/grader-only-answer.sh": `#!/bin/bash
# Fake (class grader-only): a stand-in that answers curl one way and browsers another.
true
`,
};

async function main() {
  const folder = join(dir, slug!);
  if (command === "new") {
    if (existsSync(folder)) throw new Error(`${folder} exists already`);
    mkdirSync(join(folder, "fakes"), { recursive: true });
    mkdirSync(join(folder, "files"), { recursive: true });
    for (const [name, text] of Object.entries(TEMPLATE)) writeFileSync(join(folder, name), text, { mode: name.endsWith(".sh") ? 0o755 : 0o644 });
    console.log(
      `created ${folder}: write the story, the fault, the check, the solution and the fakes (challenges/README.md), then: npm run challenge -- prove ${slug}`,
    );
    return;
  }
  if (command !== "prove") usage();
  const challenge = loadChallenge(folder, slug!);
  execFileSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "..", "images", "build.ts"), slug!], { stdio: "inherit" });
  const server = await startTestServer({ CHALLENGES_DIR: dir });
  let failed = 0;
  try {
    for await (const step of prove(server, playerPool(server, 4), challenge)) {
      if (!step.ok) failed += 1;
      console.log(`${step.ok ? "\x1b[32m✓" : "\x1b[31m✗"}\x1b[0m ${step.step}\n    ${step.detail.replace(/\n/g, "\n    ")}`);
    }
  } finally {
    await server.stop();
  }
  console.log(failed ? `\x1b[31m${slug}: ${failed} step(s) failed\x1b[0m` : `\x1b[32m${slug}: proven\x1b[0m`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
