// The users of `http --auth oauth` as accounts: each token subject, scoped by its issuer, is metered
// on its own (credits, rate window, metric restriction), from the keys file's `oauth` section:
// `{ "defaultPlan"?: NAME, "subjects"?: [{ "sub", "issuer"?, "plan"?, "credits"?, "rateLimit"?, "metrics"? }] }`.
// A subject not listed gets the default plan; without one it is not enrolled (refused).
import {
  checkFields,
  creditsOf,
  isObject,
  type Json,
  type KeyRecord,
  LOCAL_PLAN,
  metricsOf,
  rateLimitOf,
  type RateLimitSpec,
} from "./keys.js";
import { sha256Hex } from "./sha256.js";

/** A plan as an account gets it: its name, credits and rate window (the local plan's where the file says nothing). */
export interface PlanSpec {
  name: string;
  credits: number;
  rateLimit: RateLimitSpec;
}

interface SubjectEntry {
  sub: string;
  /** Only this issuer's subject (unset: the subject of whichever issuer the server trusts). */
  issuer: string | undefined;
  plan: string;
  credits: number;
  rateLimit: RateLimitSpec;
  policyName: string;
  metrics: ReadonlySet<string> | null;
}

export interface SubjectPolicy {
  defaultPlan: PlanSpec | undefined;
  subjects: readonly SubjectEntry[];
}

type Plans = ReadonlyMap<string, { credits?: number; rateLimit?: RateLimitSpec }>;

function planSpec(name: string, plans: Plans): PlanSpec {
  const plan = plans.get(name)!;
  return { name, credits: plan.credits ?? LOCAL_PLAN.credits, rateLimit: plan.rateLimit ?? { ...LOCAL_PLAN.rateLimit } };
}

/** Parses the `oauth` section; errors name the entry and the fix. */
export function subjectPolicyOf(raw: unknown, plans: Plans, fail: (m: string) => never): SubjectPolicy {
  if (!isObject(raw)) return fail(`"oauth" must be an object like {"defaultPlan": "free", "subjects": [{"sub": "…", "plan": "pro"}]}`);
  checkFields(raw, ["defaultPlan", "subjects"], "oauth", fail);
  const known = () => [...plans.keys()].join(", ") || "none are defined";
  const planName = (value: unknown, where: string): string => {
    if (typeof value !== "string" || !plans.has(value)) fail(`${where} is not one of the defined plans (${known()})`);
    return value as string;
  };
  const defaultPlan = raw["defaultPlan"] === undefined ? undefined : planSpec(planName(raw["defaultPlan"], "oauth.defaultPlan"), plans);
  const rawSubjects = raw["subjects"] ?? [];
  if (!Array.isArray(rawSubjects)) fail(`oauth.subjects must be an array of {sub, issuer?, plan?, credits?, rateLimit?, metrics?}`);
  const seen = new Map<string, number>();
  const subjects = (rawSubjects as unknown[]).map((entry, i): SubjectEntry => {
    const where = `oauth.subjects[${i}]`;
    if (!isObject(entry)) fail(`${where} must be an object`);
    const e = entry as Json;
    checkFields(e, ["sub", "issuer", "plan", "credits", "rateLimit", "metrics"], where, fail);
    const sub = e["sub"];
    if (typeof sub !== "string" || sub.length === 0 || sub.length > 255 || /[\u0000-\u001f\u007f]/.test(sub))
      fail(`${where}.sub must be the user's subject as their tokens carry it in "sub" (1–255 characters, no control characters)`);
    const issuer = e["issuer"];
    if (issuer !== undefined && (typeof issuer !== "string" || issuer.length === 0))
      fail(`${where}.issuer must be the issuer identifier of the subject's tokens (their "iss"), or left out`);
    const plan = e["plan"] === undefined ? undefined : planSpec(planName(e["plan"], `${where}.plan`), plans);
    const ownRate = rateLimitOf(e["rateLimit"], `${where}.rateLimit`, fail);
    const base = plan ?? defaultPlan;
    const name = base?.name ?? LOCAL_PLAN.name;
    const id = `${(issuer as string | undefined) ?? ""}\n${sub as string}`;
    const earlier = seen.get(id);
    if (earlier !== undefined) fail(`${where} repeats the subject of oauth.subjects[${earlier}]; each subject may appear once per issuer`);
    seen.set(id, i);
    return {
      sub: sub as string,
      issuer: issuer as string | undefined,
      plan: name,
      credits: creditsOf(e["credits"], `${where}.credits`, fail) ?? base?.credits ?? LOCAL_PLAN.credits,
      rateLimit: ownRate ?? base?.rateLimit ?? { ...LOCAL_PLAN.rateLimit },
      policyName: ownRate ? "custom" : name,
      metrics: metricsOf(e["metrics"], `${where}.metrics`, fail),
    };
  });
  return { defaultPlan, subjects };
}

/** Accounts kept in memory at most (each is rebuilt from the policy on its user's next request). */
const MAX_ACCOUNTS = 100_000;

/**
 * The accounts of one issuer's subjects. A signed-in user's calls reach the service with a
 * credential naming the account (`oauth-subject:` and the account's id), which only the resource
 * server hands out after verifying a token: the same on every instance, so view handles and the
 * metering store agree across them.
 */
export class SubjectAccounts {
  static readonly PREFIX = "oauth-subject:";
  private readonly byId = new Map<string, KeyRecord>();

  constructor(
    readonly issuer: string,
    private readonly policy: SubjectPolicy,
  ) {}

  /** The account of a verified token's subject, or undefined when the subject is not enrolled. */
  account(sub: string): { credential: string; record: KeyRecord } | undefined {
    const id = sha256Hex(`oauth\n${this.issuer}\n${sub}`);
    let record = this.byId.get(id);
    if (!record) {
      const entry =
        this.policy.subjects.find((s) => s.sub === sub && s.issuer === this.issuer) ??
        this.policy.subjects.find((s) => s.sub === sub && s.issuer === undefined);
      const plan = this.policy.defaultPlan;
      if (!entry && !plan) return undefined;
      const digest = Buffer.from(id, "hex");
      const own = entry
        ? { plan: entry.plan, credits: entry.credits, rateLimit: entry.rateLimit, policyName: entry.policyName, metrics: entry.metrics }
        : { plan: plan!.name, credits: plan!.credits, rateLimit: plan!.rateLimit, policyName: plan!.name, metrics: null };
      record = { id, digest, label: id.slice(0, 8), ...own };
      if (this.byId.size >= MAX_ACCOUNTS) this.byId.delete(this.byId.keys().next().value as string);
      this.byId.set(id, record);
    }
    return { credential: SubjectAccounts.PREFIX + id, record };
  }

  /** The account a credential names, once account() has made it. */
  byCredential(credential: string): KeyRecord | undefined {
    return this.byId.get(credential.slice(SubjectAccounts.PREFIX.length));
  }
}
