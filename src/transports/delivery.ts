// Whether an HTTP answer reached its client, and the charges it carries taken back whole when it did
// not: a client gone before the body was written, a connection that closed before the body was
// handed to the network whole, one reset right after it (the client had closed before the bytes
// reached it), or an answer that failed (5xx) instead of carrying the result.
import type { ServerResponse } from "node:http";

import { decorate } from "../backend/decorate.js";
import type { Backend, BackendContext, Charge } from "../backend/types.js";

/** True once the client has gone: the response or its socket closed, or the client ended its side. */
export function clientGone(res: ServerResponse): boolean {
  const socket = res.socket;
  return res.destroyed || !socket || socket.destroyed || socket.readableEnded;
}

/**
 * How long after its last byte a charged answer's connection is watched for a reset. A write into a
 * connection its client has already closed still succeeds into the kernel; the client's kernel then
 * answers it with a reset, one round trip later (well under a millisecond on loopback). A reset
 * later than this is not seen: the answer stays charged.
 */
export const RESET_WINDOW_MS = 250;

type Socket = NonNullable<ServerResponse["socket"]>;

/**
 * False once the kernel has dropped the connection (a reset): its peer's address is then gone
 * (ENOTCONN), though Node may have read only the client's close before it and reports no error.
 */
function peerThere(socket: Socket): boolean {
  const handle = (socket as unknown as { _handle?: { getpeername?: (out: object) => number } | null })._handle;
  return typeof handle?.getpeername !== "function" || handle.getpeername({}) === 0;
}

/**
 * Resolves true once a response is known to have reached its client: all of it handed to the
 * network, then no reset within RESET_WINDOW_MS (or the client sent its next request on the same
 * connection, which it does only after reading the answer); false when the connection closed first
 * or was reset. Called before the response finishes. Meanwhile our side of the connection is not
 * closed (a `Connection: close` answer, or the client's own close answered): a connection closed at
 * both ends no longer reports the reset that tells.
 */
export function whenDelivered(res: ServerResponse): Promise<boolean> {
  const socket = res.socket;
  if (!socket || socket.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const { destroySoon, end } = socket;
    let held: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    let decided = false;
    const decide = (delivered: boolean) => {
      if (decided) return;
      decided = true;
      clearTimeout(timer);
      socket.off("error", onError);
      socket.off("close", onClose);
      socket.off("data", onData);
      socket.destroySoon = destroySoon;
      socket.end = end;
      held?.();
      resolve(delivered);
    };
    const onError = () => decide(false);
    // Closed before all of it was handed on; closed by this server (shutting down) after that.
    const onClose = () => decide(res.writableFinished);
    const onData = () => decide(true);
    // Held only once the answer is out: before that a close is what tells the answer was not delivered.
    socket.destroySoon = () => {
      if (!res.writableFinished) return destroySoon.call(socket);
      held = () => socket.destroySoon();
    };
    socket.end = ((...args: unknown[]) => {
      if (!res.writableFinished) return Reflect.apply(end, socket, args) as Socket;
      held = () => Reflect.apply(end, socket, args);
      return socket;
    }) as typeof socket.end;
    socket.on("error", onError);
    socket.once("close", onClose);
    res.once("finish", () => {
      if (!peerThere(socket)) return decide(false);
      socket.once("data", onData);
      timer = setTimeout(() => decide(peerThere(socket)), RESET_WINDOW_MS);
    });
  });
}

/** Why a charge is taken back when its answer does not reach the client (the log names it if that fails). */
export const UNDELIVERED = "an undelivered response";

/**
 * The charges made for one HTTP response, refunded whole unless the response is delivered: the one
 * verdict on "did the client get it?" for MCP over HTTP and the REST face alike. A charge recorded
 * once the client is gone, or once the verdict is in, is refunded at once.
 */
export class Delivery {
  private charges: Charge[] = [];
  private settled = false;
  private watched = false;

  constructor(private readonly res: ServerResponse) {
    res.once("close", () => {
      if (!res.writableFinished) this.abandon();
      else if (!this.watched) this.settled = true;
    });
  }

  /** True when a charge was made for this response and not yet settled. */
  get charged(): boolean {
    return this.charges.length > 0;
  }

  /** Records a charge; one made once the response is settled is not in it, and is refunded at once. */
  readonly charge = (charge: Charge): void => {
    if (this.settled || clientGone(this.res)) return void charge.refund(UNDELIVERED);
    this.charges.push(charge);
    if (this.watched) return;
    this.watched = true;
    void whenDelivered(this.res).then((delivered) => {
      if (!delivered) this.abandon();
      else if (!this.settled) {
        this.settled = true;
        this.charges = [];
      }
    });
  };

  /** The response will not carry the charged results: every charge is taken back. */
  abandon(): void {
    this.settled = true;
    for (const charge of this.charges.splice(0)) void charge.refund(UNDELIVERED);
  }

  /** `backend` with every call's charges recorded here. */
  meter(backend: Backend): Backend {
    const withCharges = (context?: BackendContext): BackendContext => ({ ...context, onCharge: this.charge });
    // Quotes and replays charge nothing: they pass through as they are.
    return decorate(backend, { fetch: (request, context) => backend.fetch(request, withCharges(context)) });
  }
}
