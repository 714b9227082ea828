/** Loads data for a page: loading, error and ready states, and a reload. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type Load<T> =
  | { state: 'loading'; reload: () => void }
  | { state: 'error'; error: unknown; reload: () => void }
  | { state: 'ready'; data: T; reload: () => void; set: (data: T) => void };

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Load<T> {
  const [value, setValue] = useState<
    { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'ready'; data: T }
  >({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const run = ++latest.current;
    setValue({ state: 'loading' });
    load().then(
      (data) => run === latest.current && setValue({ state: 'ready', data }),
      (error: unknown) => run === latest.current && setValue({ state: 'error', error }),
    );
    // the caller lists what the load depends on
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const set = useCallback((data: T) => setValue({ state: 'ready', data }), []);
  if (value.state === 'ready') return { ...value, reload, set };
  return { ...value, reload };
}
