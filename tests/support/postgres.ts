// A throwaway PostgreSQL cluster for the API tests: initdb into a fresh temporary directory,
// start it on a free loopback port with its socket in that directory, hand out one database per
// test file, and remove everything on stop. PostgreSQL refuses to run as root, so when we are
// root the server binaries run as the `postgres` system user (the Debian package creates it).
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface TestPostgres {
  /** Superuser URL of the cluster's `postgres` database. */
  url: string;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

const PG_ROOT = "/usr/lib/postgresql";

/** The newest installed server binaries (15 on this machine kind), installing the package if missing. */
function binDir(): string {
  const find = () => {
    if (!existsSync(PG_ROOT)) return undefined;
    const versions = readdirSync(PG_ROOT)
      .filter((v) => existsSync(join(PG_ROOT, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    return versions[0] ? join(PG_ROOT, versions[0], "bin") : undefined;
  };
  let dir = find();
  if (!dir) {
    const asRoot = process.getuid?.() === 0;
    const sudo = asRoot ? [] : ["sudo"];
    const run = (args: string[]) => {
      const r = spawnSync(sudo[0] ?? args[0]!, sudo.length ? args : args.slice(1), {
        stdio: "inherit",
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
      if (r.status !== 0) throw new Error(`\`${args.join(" ")}\` failed (exit ${r.status})`);
    };
    run(["apt-get", "update", "-qq"]);
    run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "postgresql"]);
    dir = find();
  }
  if (!dir) throw new Error(`PostgreSQL server binaries not found under ${PG_ROOT} (apt package postgresql)`);
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates a database on the cluster at `adminUrl` (usable from any process) and returns its URL. */
export async function createDatabase(adminUrl: string, name?: string): Promise<string> {
  const db = name ?? `t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${quoteIdent(db)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(db)}`;
  return url.toString();
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "faultline-pg-"));
  const data = join(dir, "data");
  const logFile = join(dir, "server.log");
  if (root) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  // Runs a server binary, as `postgres` when we are root. Throws with its output on failure.
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = root ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const r = spawnSync(file, argv, { encoding: "utf8", cwd: dir, timeout: 120_000 });
    if (r.status !== 0) {
      const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
      throw new Error(`PostgreSQL: \`${cmd} ${args.join(" ")}\` failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}${r.error ?? ""}\n${log}`);
    }
  };

  try {
    run("initdb", ["-D", data, "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--locale=C"]);
    let port = 0;
    // A port found free can be taken before the server binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        run("pg_ctl", [
          "-D",
          data,
          "-l",
          logFile,
          "-o",
          // Durability is pointless for a throwaway cluster; speed matters.
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
          "-w",
          "-t",
          "60",
          "start",
        ]);
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    let stopped = false;
    return {
      url,
      createDatabase: (name?: string) => createDatabase(url, name),
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
