// Whether an HTTP answer reached its client, and the charges it carries taken back whole when it did
// not: a client gone before the body was written, a connection that closed before the body was
// handed to the network whole, or an answer that failed (5xx) instead of carrying the result.
import type { ServerResponse } from "node:http";
import type { Backend, BackendContext, BackendRequest } from "../backend/types.js";

type Refund = () => Promise<void>;

/** True once the client has gone: the response or its socket closed, or the client ended its side. */
export function clientGone(res: ServerResponse): boolean {
  const socket = res.socket;
  return res.destroyed || !socket || socket.destroyed || socket.readableEnded;
}

/**
 * Resolves after the event loop has polled for I/O at least once: a client's close that reached
 * this host before the call is then seen (`clientGone`). A timer or one setImmediate is not enough:
 * from the poll phase the check phase comes first, and a due timer runs before the next poll.
 */
export function afterPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** The charges made for one HTTP response, refunded whole unless the response is delivered. */
export class Delivery {
  private refunds: Refund[] = [];
  private settled = false;

  constructor(res: ServerResponse) {
    // A response counts as delivered once all of it was handed to the network (writableFinished).
    res.once("close", () => {
      if (!res.writableFinished) this.abandon();
      else this.settled = true;
    });
  }

  /** True when a charge was made for this response and not yet settled. */
  get charged(): boolean {
    return this.refunds.length > 0;
  }

  /** Records a charge; one made once the response is settled is not in it, and is refunded at once. */
  readonly charge = (refund: Refund): void => {
    if (this.settled) void refund();
    else this.refunds.push(refund);
  };

  /** The response will not carry the charged results: every charge is taken back. */
  abandon(): void {
    this.settled = true;
    for (const refund of this.refunds.splice(0)) void refund();
  }

  /** `backend` with every call's charges recorded here. */
  meter(backend: Backend): Backend {
    const withCharges = (context?: BackendContext): BackendContext => ({ ...context, onCharge: this.charge });
    return {
      kind: backend.kind,
      origin: backend.origin,
      close: () => backend.close(),
      ...(backend.entitlements && { entitlements: (context?: BackendContext) => backend.entitlements!(context) }),
      ...(backend.span && { span: (request: BackendRequest) => backend.span!(request) }),
      fetch: (request, context) => backend.fetch(request, withCharges(context)),
    };
  }
}
