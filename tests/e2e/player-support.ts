// Fixtures for the player's pages: solving needs Docker, so users and solves are written straight
// into the e2e server's SQLite database (DATA_DIR/faultline.db, WAL: safe beside the server).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_DIR } from "./support.ts";

let conn: Database.Database | undefined;
function db() {
  conn ??= new Database(join(DATA_DIR, "faultline.db"));
  conn.pragma("busy_timeout = 5000");
  return conn;
}

const now = () => Math.floor(Date.now() / 1000);

/** A user row (no password: nobody signs in as it) created `createdAt` seconds since the epoch. */
export function insertUser(username: string, createdAt = now()): string {
  const id = randomUUID();
  db()
    .prepare("insert into users (id, username, email, password_hash, created_at, updated_at) values (?, ?, ?, null, ?, ?)")
    .run(id, username, `${username.toLowerCase()}@players.example.test`, createdAt, createdAt);
  return id;
}

export function userId(username: string): string {
  const row = db().prepare("select id from users where lower(username) = lower(?)").get(username) as { id: string } | undefined;
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

export function insertSolve(username: string, challengeId: string, points: number, opts: { solveSeconds?: number; solvedAt?: number } = {}) {
  db()
    .prepare("insert into solves (user_id, challenge_id, deployment_id, points, solve_seconds, solved_at) values (?, ?, ?, ?, ?, ?)")
    .run(userId(username), challengeId, randomUUID(), points, opts.solveSeconds ?? 600, opts.solvedAt ?? now() - 5);
}

/** An ended deployment of `challengeId` (an attempt without a solve: starting one needs Docker). */
export function insertDeployment(username: string, challengeId: string) {
  const t = now();
  db()
    .prepare(
      "insert into deployments (id, user_id, challenge_id, status, ssh_user, created_at, expires_at, ended_at, updated_at) values (?, ?, ?, 'terminated', 'root', ?, ?, ?, ?)",
    )
    .run(randomUUID(), userId(username), challengeId, t - 600, t, t, t);
}
