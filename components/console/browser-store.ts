'use client';

// Values that exist in the browser only (localStorage, the reader's clock and
// zone), read with useSyncExternalStore: the server render and hydration use
// the server's value, the browser's follows right after, with no effect that
// sets state.
import * as React from 'react';

const never = () => () => undefined;

/** A value computed in the browser (e.g. the reader's time zone); `serverValue` while rendering on the server and hydrating. */
export function useBrowserValue<T extends string | number | boolean | null>(read: () => T, serverValue: T): T {
  return React.useSyncExternalStore(never, read, () => serverValue);
}

/**
 * One localStorage entry shared by every component of the page: read once on
 * first use, then kept in memory (so a choice lasts for the page even where
 * storage is unavailable, as in some private modes).
 */
export function localStorageValue<T extends string | null>(key: string, parse: (stored: string | null) => T, serverValue: T) {
  let current: { value: T } | null = null;
  const listeners = new Set<() => void>();
  const read = (): T => {
    if (!current) {
      let stored: string | null = null;
      try {
        stored = localStorage.getItem(key);
      } catch {
        // No storage: as if nothing were stored.
      }
      current = { value: parse(stored) };
    }
    return current.value;
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    useValue: (): T => React.useSyncExternalStore(subscribe, read, () => serverValue),
    set(value: T & string) {
      current = { value };
      try {
        localStorage.setItem(key, value);
      } catch {
        // No storage: the value lasts for this page only.
      }
      for (const listener of listeners) listener();
    },
  };
}

/** Date.now() for rendering, refreshed every `everyMs` (a render itself must not read the clock). */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
