// How a server process ends on a signal: the first SIGTERM or SIGINT runs its stop (closing what it
// holds, answering what it owes) once, then the process exits 0 whatever the stop did. A second signal
// finds no handler and ends the process at once, as Node does by default.

export function stopOnSignals(stop: (signal: NodeJS.Signals) => Promise<unknown>): void {
  let stopping: Promise<unknown> | undefined;
  const end = (signal: NodeJS.Signals) => {
    stopping ??= stop(signal)
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", end);
  process.once("SIGINT", end);
}
