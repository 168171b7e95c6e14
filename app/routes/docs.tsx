// /docs: how to reach a deployment by SSH (key, proof of possession, the gateway's host key, an
// ~/.ssh/config entry with this installation's host and port), how grading works and what it
// trusts (docs/decisions/008-grading-threat-model.md in a player's words), and the challenge
// format for contributors (challenges/README.md in short). Server-rendered, no script needed.
import type { ReactNode } from "react";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/docs";
import { getWeb } from "#app/.server/guards.ts";

export const meta: Route.MetaFunction = () => [{ title: "docs | faultline" }];

export async function loader({ context }: Route.LoaderArgs) {
  const res = await getWeb(context).api.getSshConfig();
  // Without a running gateway (no engine on this installation) the page still explains everything,
  // with placeholders where the host and port would be.
  if (!res.ok) return { ssh: null };
  const d = res.data;
  return { ssh: { host: d.ssh_host, port: d.ssh_port, fingerprint: d.host_key_fingerprint, knownHosts: d.known_hosts } };
}

const SECTIONS = [
  { id: "ssh", title: "Connect by SSH" },
  { id: "grading", title: "How grading works" },
  { id: "challenge-format", title: "The challenge format" },
] as const;

function Block({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    // Focusable, so a keyboard user can scroll a wide block sideways.
    <pre
      tabIndex={0}
      className="mt-2 overflow-x-auto whitespace-pre rounded border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm dark:border-zinc-800 dark:bg-black dark:text-term-green"
      data-testid={testId}
    >
      {children}
    </pre>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="panel mt-6 space-y-3" data-testid={`docs-${id}`}>
      <h2 id={`${id}-title`} className="prompt text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function Docs({ loaderData }: Route.ComponentProps) {
  const { ssh } = loaderData;
  const host = ssh?.host ?? "<host>";
  const port = ssh?.port ?? "<port>";
  const portFlag = port === 22 ? "" : `-p ${port} `;
  return (
    <div className="mx-auto max-w-3xl">
      <section className="panel">
        <h1 className="prompt text-2xl font-bold">cat docs.txt</h1>
        <p className="mt-4">
          How faultline works: pick a challenge, start it, connect with ssh using the key from your settings, fix the fault, submit a short explanation.
        </p>
        <p className="mt-2">
          Building on faultline? The JSON API is described on <Link to="/docs/api">the API reference</Link> (OpenAPI 3.1 at <code>/api/v1/openapi.json</code>).
        </p>
        <nav aria-label="On this page" className="mt-4">
          <ul className="list-inside list-disc space-y-1">
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ul>
        </nav>
      </section>

      <Section id="ssh" title="Connect by SSH">
        <p>
          Every deployment is reached with your own ssh client and your own key: there is no password. Make a key once (skip this if you already have{" "}
          <code>~/.ssh/id_ed25519</code>):
        </p>
        <Block>ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519</Block>
        <p>
          Then open <Link to="/profile/settings">settings</Link>, paste the contents of <code>~/.ssh/id_ed25519.pub</code> and prove the key is yours: the page
          shows a one-time code and the command that signs it with your private key, for example
        </p>
        <Block>echo -n &apos;&lt;code from the page&gt;&apos; | ssh-keygen -Y sign -n faultline -f ~/.ssh/id_ed25519</Block>
        <p>
          Paste everything it prints, from <code>-----BEGIN SSH SIGNATURE-----</code> to <code>-----END SSH SIGNATURE-----</code>, and save. Only a key proven
          this way is accepted, so nobody can register your public key as theirs. Replacing or deleting it later asks for your password or a 2FA code.
        </p>
        <p>Start a challenge from its page, wait until it is ready, then connect as the challenge&apos;s name (the challenge page shows the exact command):</p>
        <Block testId="docs-ssh-command">{`ssh ${portFlag}<challenge>@${host}`}</Block>
        {ssh ? (
          <div className="space-y-2" data-testid="docs-host-key">
            <h3 className="font-bold">The SSH server&apos;s key</h3>
            <p>
              The first time you connect, ssh asks whether to trust the server&apos;s key. Go on only if the fingerprint it shows is{" "}
              <code data-testid="ssh-host-key">{ssh.fingerprint}</code>. Or add this line to <code>~/.ssh/known_hosts</code> beforehand:
            </p>
            <code className="block select-all break-all rounded bg-zinc-100 px-3 py-2 text-xs dark:bg-zinc-900" data-testid="ssh-known-hosts">
              {ssh.knownHosts}
            </code>
          </div>
        ) : (
          <p className="alert-warn" data-testid="docs-no-gateway">
            The SSH gateway is not running on this installation right now, so its key cannot be shown.
          </p>
        )}
        <h3 className="font-bold">A shortcut in ~/.ssh/config</h3>
        <p>
          With this entry, <code>ssh &lt;challenge&gt;@faultline</code> is enough:
        </p>
        <Block testId="docs-ssh-config">{`Host faultline
    HostName ${host}
    Port ${port}
    IdentityFile ~/.ssh/id_ed25519
    IdentitiesOnly yes`}</Block>
        <p className="text-sm">
          <code>IdentitiesOnly</code> stops ssh from offering every key it knows (and asking for their passphrases). scp and sftp work the same way. Port
          forwarding and agent forwarding are refused. A deployment ends when its time is up or when you stop it, and its connections close with it.
        </p>
      </Section>

      <Section id="grading" title="How grading works">
        <p>
          When you submit, a check looks at your deployment from the outside and decides whether the fault is really fixed. You are root in the deployment, so
          nothing in it is taken on trust:
        </p>
        <ul className="list-inside list-disc space-y-2">
          <li>
            The check never runs inside your deployment and never runs a program you could change. It runs in a separate, short-lived grader container made from
            the challenge&apos;s read-only image, next to yours.
          </li>
          <li>
            It looks at your system the way the kernel sees it (files, processes, listening sockets) and talks to your services over the network as a real
            client would.
          </li>
          <li>
            It checks <em>who</em> answers, not only <em>what</em> answers: the service on the port must be the system&apos;s own program from the read-only
            system directories, started the usual way, after the last change of its configuration.
          </li>
          <li>
            Stand-ins, replaced binaries, preload files, copies in <code>/usr/local</code> or a file written to look fixed are refused with one honest sentence
            about what is wrong, never with the answer.
          </li>
          <li>
            Some challenges ask a question (which process, which user, which file): your written answer must name it, and an answer that lists every candidate
            does not count.
          </li>
          <li>
            Faults are randomised per deployment, so a fix or an answer copied from someone else&apos;s deployment fails. The first correct submission earns the
            points; submissions are limited to a few a minute.
          </li>
        </ul>
      </Section>

      <Section id="challenge-format" title="The challenge format">
        <p>
          Want to add an incident of your own? A challenge is a folder <code>challenges/&lt;slug&gt;/</code> in the faultline repository:
        </p>
        <Block>{`challenges/<slug>/
  challenge.yaml   the story and settings
  Dockerfile       FROM faultline/base:latest, installs what the scenario needs
  files/           what the Dockerfile copies in
  setup.sh         injects a randomised fault, prints its values as JSON
  check.sh         the grader: exit 0 = fixed, stdout = feedback
  solution.sh      the reference fix, diagnosing as a person would
  fakes/*.sh       what a hostile player would do instead: each must be refused`}</Block>
        <ul className="list-inside list-disc space-y-2">
          <li>
            <strong>challenge.yaml</strong>: title, category (linux, networking, storage, security), difficulty and points (easy 100, medium 250, hard 500,
            expert 1000), <code>estimated_time_minutes</code>, <code>short_description</code>, <code>description</code>, <code>instructions</code> without
            spoilers, 1–3 <code>hints</code> from gentle to revealing (each costs points when revealed, 10% of the challenge&apos;s by default or its own{" "}
            <code>cost</code>, deducted only on solving), <code>badge</code>, <code>incident_note</code>, the runtime&apos;s needs, the faults setup can pick (
            <code>variants</code>), and what players see after solving: a <code>debrief</code> (the root cause in a few sentences) and{" "}
            <code>solution_steps</code> (the reference fix, step by step).
          </li>
          <li>
            <strong>setup.sh</strong> picks at random whatever it can (which fault, ports, paths, names) and prints the values the check needs as one JSON
            object on its last line. Two deployments must differ.
          </li>
          <li>
            <strong>check.sh</strong> runs in the grader beside the deployment, with the platform&apos;s inspector <code>fl</code> and plain network clients. It
            confirms who answers, fails closed and never gives the answer away.
          </li>
          <li>
            <strong>solution.sh</strong> gets none of the platform&apos;s values: it finds the fault from what a player sees and fixes it, for every variant.
          </li>
          <li>
            <strong>fakes/</strong>: at least one convincing fake per challenge (a stand-in on the port, the real program started another way); the test suite
            requires each to be refused.
          </li>
          <li>The scripts and fakes never enter the image; they are fed to bash on stdin and never stored in a deployment.</li>
        </ul>
        <p>Scaffold a new challenge, then prove it through the real platform:</p>
        <Block>{`npm run challenge -- new my-incident     # scaffold challenges/my-incident/
npm run challenge -- prove my-incident   # build its image; check fails, solution.sh via the
                                         # SSH gateway, check passes, fakes refused`}</Block>
        <p className="text-sm">
          The author&apos;s guide in the repository (<code>challenges/README.md</code>) has every rule, the grader&apos;s toolbox and a worked example. Send
          your challenge as a pull request.
        </p>
      </Section>
    </div>
  );
}
