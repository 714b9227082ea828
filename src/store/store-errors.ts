/** Tells a store outage (connection lost, timeout, cluster down) from a programming error. */
export function isStoreUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const name = err.name;
  const msg = err.message;
  return (
    name === 'MaxRetriesPerRequestError' ||
    /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Command timed out|Socket timeout|CLUSTERDOWN|TRYAGAIN|LOADING|Failed to refresh slots cache|None of startup nodes is available|enableOfflineQueue|Redis connection|not ready/i.test(
      msg,
    )
  );
}
