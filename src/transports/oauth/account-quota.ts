// The real service behind `http --auth oauth`: every user's reads go out under the operator's
// upstream key, and each user's own account (credits, rate window, metric restriction from the
// keys file) is charged in our metering store first, by the catalog's documented costs, so one
// user cannot spend everyone's upstream credits. A read the upstream does not answer is refunded.
import type { KeyRecord, KeyStore } from "../../backend/inprocess/keys.js";
import type { MeteringStore } from "../../backend/inprocess/metering/store.js";
import {
  type Backend,
  type BackendContext,
  type BackendRequest,
  type BackendResult,
  chargeOf,
  type Quote,
  type RequestSpan,
  ServiceError,
} from "../../backend/types.js";
import { gateOf, metricById, readThrough } from "../../catalog/index.js";
import { log } from "../../log.js";

export class AccountQuotaBackend implements Backend {
  readonly kind: Backend["kind"];
  readonly origin: Backend["origin"];

  constructor(
    private readonly upstream: Backend,
    private readonly keys: KeyStore,
    private readonly store: MeteringStore,
  ) {
    this.kind = upstream.kind;
    this.origin = upstream.origin;
  }

  /** The caller's account; the credential comes from the resource server, never from a client. */
  private account(context: BackendContext): KeyRecord {
    const account = context.apiKey === undefined ? undefined : this.keys.lookup(context.apiKey);
    if (!account) throw new ServiceError(401, "unauthorized", "No signed-in account for this call; sign in again.");
    return account;
  }

  private checkEntitled(account: KeyRecord, request: BackendRequest): void {
    const endpoint = metricById(request.endpoint);
    if (!account.metrics || !endpoint) return;
    const gate = gateOf(endpoint);
    if (account.metrics.has(gate)) return;
    const allowed = [...account.metrics];
    throw new ServiceError(
      403,
      "metric_not_allowed",
      `This account may not call ${gate}${readThrough(endpoint)}; nothing was charged. It may call: ${allowed.join(", ")}.`,
      { endpoint: gate, allowed },
    );
  }

  /** Upstream calls carry the operator's key: the account's credential never leaves this process. */
  private operator(context: BackendContext): BackendContext {
    const { apiKey: _account, onCharge: _charge, ...rest } = context;
    return rest;
  }

  async fetch(request: BackendRequest, context: BackendContext = {}): Promise<BackendResult> {
    const account = this.account(context);
    this.checkEntitled(account, request);
    const [cost = 0] = (await this.upstream.quote?.([request], this.operator(context)))?.costs ?? [];
    const outcome = await this.store.charge(account, cost);
    if (!outcome.ok && outcome.reason === "rate_limited")
      throw new ServiceError(429, "rate_limited", "This account's rate window is full; nothing was charged.", {
        retryAfterS: outcome.retryAfterS,
        creditsRemaining: outcome.creditsRemaining,
      });
    if (!outcome.ok)
      throw new ServiceError(
        402,
        "credits_exhausted",
        `This account has ${outcome.creditsRemaining} credits left, fewer than the ${cost} this read costs.`,
        {
          creditsRemaining: outcome.creditsRemaining,
        },
      );
    const charge = chargeOf(
      cost,
      () => this.store.refund(account, outcome.request, cost),
      (why, err) => log.error(`a charge for ${why} could not be refunded`, { credits: cost, error: (err as Error).message }),
    );
    let result: BackendResult;
    try {
      result = await this.upstream.fetch(request, this.operator(context));
    } catch (err) {
      await charge.refund("an unanswered read");
      throw err;
    }
    context.onCharge?.(charge);
    // The answer shows this account's charge and balance, not the operator's (a copy: the upstream
    // client may hand the same cached object to other callers; getters are copied, not run).
    const own = Object.defineProperties({}, Object.getOwnPropertyDescriptors(result)) as BackendResult;
    own.usage = { charged: cost, creditsRemaining: outcome.creditsRemaining };
    return own;
  }

  async quote(requests: readonly BackendRequest[], context: BackendContext = {}): Promise<Quote> {
    const account = this.account(context);
    for (const r of requests) this.checkEntitled(account, r);
    const { costs } = (await this.upstream.quote?.(requests, this.operator(context))) ?? { costs: requests.map(() => 0) };
    const status = await this.store.status(account);
    return { costs, creditsRemaining: status.creditsRemaining, rate: status.rate };
  }

  entitlements(context: BackendContext = {}): readonly string[] | null | undefined {
    const account = context.apiKey === undefined ? undefined : this.keys.lookup(context.apiKey);
    return account ? (account.metrics ? [...account.metrics] : null) : undefined;
  }

  span(request: BackendRequest): RequestSpan | undefined {
    return this.upstream.span?.(request);
  }

  async replay(request: BackendRequest, asOfMs: number, context: BackendContext = {}): Promise<BackendResult> {
    const account = this.account(context);
    this.checkEntitled(account, request);
    if (!this.upstream.replay) throw new ServiceError(404, "not_found", "This answer can no longer be replayed; call the tool again.");
    return this.upstream.replay(request, asOfMs, this.operator(context));
  }

  async close(): Promise<void> {
    await this.upstream.close();
    await this.store.close();
  }
}
