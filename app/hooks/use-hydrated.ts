import { useSyncExternalStore } from "react";

const subscribeNothing = () => () => {};
/** False during the server render and hydration, true once React runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}
