// What a signature check concluded, remembered for the input it checked. Such a check depends
// only on its input and a key fixed for the life of the process (an HMAC under the configured
// secret), so a token or cookie a browser sends on every request needs verifying once. Node's
// WebCrypto HMAC, which jose (access tokens) and React Router's signed cookies use, runs as an
// async job on the thread pool: ~0.2–0.4 ms per check, two per signed-in page (a CPU
// profile). Only successes are remembered, so made-up inputs cannot fill it; bounded, the oldest
// entry goes first. Whatever a success still depends on (a token's expiry, a disabled account,
// a session row) is checked by the caller on every use.
export interface VerifiedMemo<V> {
  get(input: string): V | undefined;
  remember(input: string, value: V): void;
}

export function verifiedMemo<V>(most = 10_000, longestInput = 4096): VerifiedMemo<V> {
  const entries = new Map<string, V>();
  return {
    get: (input) => entries.get(input),
    remember(input, value) {
      if (input.length > longestInput) return;
      entries.delete(input);
      if (entries.size >= most) entries.delete(entries.keys().next().value!);
      entries.set(input, value);
    },
  };
}
