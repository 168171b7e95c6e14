// Small rate and size limits for the SSH gateway: what one client may make the gateway do, per
// address before authentication and per SSH session channel after it
// (docs/decisions/004-ssh-gateway.md, "Disconnects and limits"). Pure and clock-injectable, so
// the rules are unit-tested on their own.
import { isIPv4 } from "node:net";

/** A token bucket: `capacity` actions at once, refilled at `perSecond`. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly capacity: number,
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = capacity;
    this.last = now();
  }

  private refill() {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
  }

  /** Takes one token when there is one. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until a token is there (0 when one is). */
  waitMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
  }
}

/**
 * A token bucket per key (a user's terminal openings), for at most `maxKeys` keys: past it the
 * least recently used key is forgotten (it starts again with a full bucket). Forgetting every key
 * at once instead (as it was done) gave everyone, the one who spent their budget included, a full
 * bucket as soon as enough accounts had been seen.
 */
export class RecentBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    readonly capacity: number,
    readonly perSecond: number,
    readonly maxKeys: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token of `key`'s bucket when there is one. */
  take(key: string): boolean {
    let bucket = this.buckets.get(key);
    if (bucket) this.buckets.delete(key);
    bucket ??= new TokenBucket(this.capacity, this.perSecond, this.now);
    // Map order is insertion order: re-inserting on use keeps the least recently used first.
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return bucket.take();
  }

  get size() {
    return this.buckets.size;
  }
}

/**
 * Applies only the latest of a burst of values: the first waits `delayMs` for more to come,
 * later ones replace it, and the bucket bounds how often `apply` runs. The last value is never
 * dropped, only delayed (a terminal ends at the size it was last given).
 */
export class Coalescer<T> {
  private pending: { value: T } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly apply: (value: T) => void,
    private readonly bucket: TokenBucket,
    private readonly delayMs = 100,
  ) {}

  push(value: T) {
    if (this.stopped) return;
    this.pending = { value };
    if (!this.timer) this.schedule(this.delayMs);
  }

  private schedule(ms: number) {
    this.timer = setTimeout(() => this.fire(), ms);
    this.timer.unref();
  }

  private fire() {
    this.timer = null;
    if (!this.pending || this.stopped) return;
    const wait = this.bucket.waitMs();
    if (wait > 0) return this.schedule(wait);
    this.bucket.take();
    const { value } = this.pending;
    this.pending = null;
    this.apply(value);
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }
}

/** What an SSH session channel may set with `env` requests (OpenSSH's SendEnv / SetEnv). */
export const ENV_LIMITS = { entries: 32, keyLength: 64, valueLength: 256, totalBytes: 4096 };
const ENV_ALLOWED = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|COLORTERM)$/;

/** Adds `key=value` to `env` when allowed and within ENV_LIMITS; false when refused. */
export function acceptEnv(env: Record<string, string>, key: unknown, value: unknown): boolean {
  if (typeof key !== "string" || typeof value !== "string") return false;
  if (key.length > ENV_LIMITS.keyLength || !ENV_ALLOWED.test(key)) return false;
  if (value.length > ENV_LIMITS.valueLength || value.includes("\0")) return false;
  const replacing = Object.hasOwn(env, key);
  if (!replacing && Object.keys(env).length >= ENV_LIMITS.entries) return false;
  let total = key.length + value.length;
  for (const [k, v] of Object.entries(env)) if (k !== key) total += k.length + v.length;
  if (total > ENV_LIMITS.totalBytes) return false;
  env[key] = value;
  return true;
}

/** What a `pty-req` may ask for (and a `window-change`, or the browser terminal, resize to):
 *  1..1000 columns and rows; a TERM of 1..64 plain characters, else "xterm". A size of 2^32-1
 *  would become the recording's width and freeze the replay viewer. */
export const PTY_LIMITS = { maxSize: 1000, term: /^[A-Za-z0-9._-]{1,64}$/, defaultTerm: "xterm" };

/** A terminal dimension within 1..PTY_LIMITS.maxSize; `fallback` when it is not a number or 0. */
export function clampSize(n: unknown, fallback: number): number {
  if (typeof n !== "number" || !Number.isFinite(n) || n < 1) return fallback;
  return Math.min(PTY_LIMITS.maxSize, Math.floor(n));
}

/** The TERM a client asked for, when it is a plain terminal name; else the default. */
export function acceptTerm(term: unknown): string {
  return typeof term === "string" && PTY_LIMITS.term.test(term) ? term : PTY_LIMITS.defaultTerm;
}

/**
 * The key connections are counted under: the IPv4 address (also when written IPv4-mapped), or
 * the /64 of an IPv6 address (one host usually holds a whole /64).
 */
export function addressKey(remote: string | undefined): string {
  if (!remote) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped) return mapped[1]!;
  if (isIPv4(remote)) return remote;
  const [head = "", tail = ""] = remote.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = remote.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
