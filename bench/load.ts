// The load generator shared by the REST and MCP-over-HTTP rows: N concurrent loops of request →
// full body → check → next over one keep-alive pool, alternating rounds between the servers compared.
import { Pool } from "undici";

import { type Latency, latency, median, msSince, round } from "./stats.js";

export interface Request {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Target {
  name: string;
  url: string;
  /** The i-th request this target is sent. */
  request(i: number): Request;
  /** Throws when a response is not what the server should answer. */
  check(status: number, body: Buffer): void;
}

export interface Drive {
  requests: number;
  seconds: number;
  samples: number[];
  /** CPU time of this (load generator) process over wall time: near 1 means it, not the server, set the pace. */
  clientCpu: number;
}

export async function drive(target: Target, concurrency: number, durationMs: number): Promise<Drive> {
  const pool = new Pool(target.url, { connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const samples: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const deadline = performance.now() + durationMs;
  let sent = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t = process.hrtime.bigint();
      const req = target.request(sent++);
      const res = await pool.request({
        path: req.path,
        method: req.method,
        headers: req.headers,
        ...(req.body !== undefined && { body: req.body }),
      });
      target.check(res.statusCode, Buffer.from(await res.body.arrayBuffer()));
      samples.push(msSince(t));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wallMs = msSince(t0);
  const cpu = process.cpuUsage(cpu0);
  await pool.close();
  return { requests: samples.length, seconds: wallMs / 1000, samples, clientCpu: round((cpu.user + cpu.system) / 1000 / wallMs) };
}

export interface LoadFigure {
  server: string;
  concurrency: number;
  requests: number;
  seconds: number;
  /** Median of the rounds' rates. */
  requestsPerSecond: number;
  latencyMs: Latency;
  /** Highest client CPU share over the rounds. */
  clientCpu: number;
}

/** A client CPU share at or above this means the row measures the load generator as much as the server. */
export const CLIENT_BOUND = 0.9;

/**
 * `rounds` alternating rounds per target at one concurrency; the median rate. Load from other
 * processes on a shared machine only ever slows a round down, and alternation makes it hit every
 * target alike instead of whichever ran second.
 */
export async function compare(targets: readonly Target[], concurrency: number, durationMs: number, rounds: number): Promise<LoadFigure[]> {
  const byName = new Map<string, Drive[]>(targets.map((t) => [t.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const t of r % 2 ? [...targets].reverse() : targets) byName.get(t.name)!.push(await drive(t, concurrency, durationMs / rounds));
  }
  return targets.map(({ name }) => {
    const ds = byName.get(name)!;
    return {
      server: name,
      concurrency,
      requests: ds.reduce((n, d) => n + d.requests, 0),
      seconds: round(ds.reduce((n, d) => n + d.seconds, 0)),
      requestsPerSecond: round(median(ds.map((d) => d.requests / d.seconds))),
      latencyMs: latency(ds.flatMap((d) => d.samples)),
      clientCpu: Math.max(...ds.map((d) => d.clientCpu)),
    };
  });
}
