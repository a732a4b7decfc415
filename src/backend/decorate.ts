// One way to wrap a backend: replace its fetch (and close) and pass every other method through, so
// that a wrapper never drops one (a wrapper without `span` served an out-of-history range, charged).
import type { Backend } from "./types.js";

type OptionalMethod = { [K in keyof Backend]-?: undefined extends Backend[K] ? K : never }[keyof Backend];
/** Every optional method of Backend: one added there fails to compile here until it passes through. */
const PASSED: Record<OptionalMethod, true> = { entitlements: true, span: true, quote: true, replay: true };

export interface Decoration {
  fetch?: Backend["fetch"];
  close?: Backend["close"];
}

/** `backend` with `fetch` and `close` replaced where given; every other method is the backend's own, bound to it. */
export function decorate(backend: Backend, over: Decoration): Backend {
  const out: Record<string, unknown> = {
    kind: backend.kind,
    origin: backend.origin,
    fetch:
      over.fetch ??
      ((request: Parameters<Backend["fetch"]>[0], context: Parameters<Backend["fetch"]>[1]) => backend.fetch(request, context)),
    close: over.close ?? (() => backend.close()),
  };
  for (const name of Object.keys(PASSED) as OptionalMethod[]) {
    const method = backend[name] as ((...args: never[]) => unknown) | undefined;
    if (method) out[name] = method.bind(backend);
  }
  return out as unknown as Backend;
}
