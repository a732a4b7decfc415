// API keys of the in-process service: the keys file (plans, per-key overrides, metric
// restrictions) or a single local key. Keys are held only as SHA-256 digests. The file's `oauth`
// section (oauth-subjects.ts) makes each signed-in user of `http --auth oauth` an account too.
import { endpointById, ENDPOINTS, nearestEndpoints } from "../../catalog/index.js";
import { readBounded, TooLargeError } from "../../read-bounded.js";
import { API_KEY_PATTERN } from "../types.js";
import { jsonErrorOffset, lineColumn } from "./json-position.js";
import { type PlanSpec, SubjectAccounts, type SubjectPolicy, subjectPolicyOf } from "./oauth-subjects.js";
import { equalBytes, sha256, sha256Hex } from "./sha256.js";

export interface RateLimitSpec {
  requests: number;
  windowSeconds: number;
}

export interface KeyRecord {
  /** SHA-256 of the key, hex: the identity used for usage and rate windows. */
  id: string;
  digest: Buffer;
  /** First 8 hex characters of the digest: the only form of a key that may be logged. */
  label: string;
  plan: string;
  credits: number;
  rateLimit: RateLimitSpec;
  /** Name of the rate policy in RateLimit headers: the plan's, or "custom" for a per-key override. */
  policyName: string;
  /** Endpoint ids the key may call; null means all. */
  metrics: ReadonlySet<string> | null;
}

/** The plan of the key used without a keys file: generous enough that a newcomer never meets a limit. */
export const LOCAL_PLAN = { name: "local", credits: 1_000_000, rateLimit: { requests: 600, windowSeconds: 60 } } as const;
export const DEFAULT_KEY = "demo";

const MAX_REQUESTS = 100_000;
const MAX_WINDOW_S = 86_400;
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
/** A keys file past this is refused (a million keys fit in less). */
export const MAX_KEYS_FILE_BYTES = 16 * 1024 * 1024;

export class KeysFileError extends Error {
  override readonly name = "KeysFileError";
}

export { sha256 };

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Edit distance, for "did you mean" on a misspelt field: the field itself is never printed (it may be a key). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

export function checkFields(obj: Json, allowed: readonly string[], where: string, fail: (m: string) => never): void {
  Object.keys(obj).forEach((field, i) => {
    if (allowed.includes(field)) return;
    const near = allowed.find((a) => distance(field.toLowerCase(), a.toLowerCase()) <= 2);
    // The unknown name is not repeated (a key written as a field name would be printed): its position and a hint are.
    fail(
      `${where} has an unknown field (field ${i + 1} of the object)${near ? `; did you mean "${near}"?` : ""}; accepted: ${allowed.join(", ")}`,
    );
  });
}

function integer(value: unknown, min: number, max: number, where: string, fail: (m: string) => never): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    fail(`${where} must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function rateLimitOf(value: unknown, where: string, fail: (m: string) => never): RateLimitSpec | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) fail(`${where} must be an object like {"requests": 30, "windowSeconds": 60}`);
  checkFields(value, ["requests", "windowSeconds"], where, fail);
  return {
    requests: integer(value["requests"], 1, MAX_REQUESTS, `${where}.requests`, fail),
    windowSeconds: integer(value["windowSeconds"], 1, MAX_WINDOW_S, `${where}.windowSeconds`, fail),
  };
}

export function creditsOf(value: unknown, where: string, fail: (m: string) => never): number | undefined {
  return value === undefined ? undefined : integer(value, 0, Number.MAX_SAFE_INTEGER, where, fail);
}

export function metricsOf(value: unknown, where: string, fail: (m: string) => never): ReadonlySet<string> | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.length === 0) fail(`${where} must be a non-empty array of endpoint ids such as "lifespan/Lth_mvrv"`);
  for (const [i, id] of value.entries()) {
    if (typeof id !== "string" || !endpointById(id)) {
      const hint = typeof id === "string" ? nearestEndpoints(id) : [];
      // The value itself is not repeated: a key pasted into the wrong field would be printed.
      fail(
        `${where}[${i}] is not an endpoint id` +
          (hint.length ? `; did you mean ${hint.map((h) => `"${h}"`).join(" or ")}?` : `; ids look like "${ENDPOINTS[0]!.id}"`),
      );
    }
  }
  return new Set(value as string[]);
}

function record(
  key: string,
  plan: string,
  credits: number,
  rateLimit: RateLimitSpec,
  policyName: string,
  metrics: ReadonlySet<string> | null,
): KeyRecord {
  const digest = sha256(key);
  const id = digest.toString("hex");
  return { id, digest, label: id.slice(0, 8), plan, credits, rateLimit, policyName, metrics };
}

type Fail = (message: string) => never;

/** What a plan of the keys file sets; the rest comes from the local plan. */
type PlanOverrides = { credits?: number; rateLimit?: RateLimitSpec };

function parseKeysJson(text: string, fail: Fail): unknown {
  // A byte order mark some editors write is not JSON, and not worth refusing the file for.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error, which may be a key: say where, never what.
    const { line, column } = lineColumn(text, jsonErrorOffset(text));
    return fail(`malformed JSON at line ${line}, column ${column}; see the keys file format in the README`);
  }
}

function plansOf(rawPlans: unknown, fail: Fail): Map<string, PlanOverrides> {
  const plans = new Map<string, PlanOverrides>();
  if (!isObject(rawPlans)) fail(`"plans" must be an object of plan name → {credits, rateLimit}`);
  for (const [name, plan] of Object.entries(rawPlans as Json)) {
    const where = `plans.${name}`;
    if (!NAME_RE.test(name))
      fail(
        `the name of plan ${Object.keys(rawPlans as Json).indexOf(name) + 1} must be 1–64 letters, digits, "_", "." or "-" (not repeated here: it may be a key)`,
      );
    if (!isObject(plan)) fail(`${where} must be an object`);
    const p = plan as Json;
    checkFields(p, ["credits", "rateLimit"], where, fail);
    const credits = creditsOf(p["credits"], `${where}.credits`, fail);
    const rateLimit = rateLimitOf(p["rateLimit"], `${where}.rateLimit`, fail);
    plans.set(name, { ...(credits !== undefined && { credits }), ...(rateLimit && { rateLimit }) });
  }
  return plans;
}

/** One entry of "keys": its own settings first, then its plan's, then the local plan's. */
function keyRecordOf(entry: unknown, where: string, plans: ReadonlyMap<string, PlanOverrides>, fail: Fail): KeyRecord {
  if (!isObject(entry)) fail(`${where} must be an object`);
  const e = entry as Json;
  checkFields(e, ["key", "plan", "credits", "rateLimit", "metrics"], where, fail);
  const key = e["key"];
  if (typeof key !== "string" || !API_KEY_PATTERN.test(key)) fail(`${where}.key must be 1–512 printable ASCII characters without spaces`);
  let plan: PlanOverrides = {};
  const planName = e["plan"];
  if (planName !== undefined) {
    if (typeof planName !== "string" || !plans.has(planName)) {
      fail(
        `${where}.plan is not one of the defined plans (${[...plans.keys()].join(", ") || "none are defined"}); the value is not repeated here, as it may be a key`,
      );
    }
    plan = plans.get(planName as string)!;
  }
  const ownRate = rateLimitOf(e["rateLimit"], `${where}.rateLimit`, fail);
  const credits = creditsOf(e["credits"], `${where}.credits`, fail) ?? plan.credits ?? LOCAL_PLAN.credits;
  const rateLimit = ownRate ?? plan.rateLimit ?? { ...LOCAL_PLAN.rateLimit };
  const name = typeof planName === "string" ? planName : LOCAL_PLAN.name;
  return record(key as string, name, credits, rateLimit, ownRate ? "custom" : name, metricsOf(e["metrics"], `${where}.metrics`, fail));
}

function keyRecordsOf(rawKeys: readonly unknown[], plans: ReadonlyMap<string, PlanOverrides>, fail: Fail): KeyRecord[] {
  const records: KeyRecord[] = [];
  const seen = new Map<string, number>();
  rawKeys.forEach((entry, i) => {
    const where = `keys[${i}]`;
    const r = keyRecordOf(entry, where, plans, fail);
    const earlier = seen.get(r.id);
    if (earlier !== undefined) fail(`${where} repeats the key of keys[${earlier}]; each key may appear once`);
    seen.set(r.id, i);
    records.push(r);
  });
  return records;
}

export class KeyStore {
  private readonly byDigest = new Map<string, KeyRecord>();
  private accounts: SubjectAccounts | undefined;

  constructor(
    records: readonly KeyRecord[],
    /** The keys file's `oauth` section, when it has one. */
    readonly subjectPolicy?: SubjectPolicy,
  ) {
    for (const r of records) this.byDigest.set(r.id, r);
  }

  /**
   * Makes the token subjects of `issuer` accounts of this store (`http --auth oauth` only: nothing
   * else ever presents a subject's credential, and before this call none is recognised). Without an
   * `oauth` section in the keys file every subject is on `fallback`.
   */
  acceptSubjects(issuer: string, fallback?: PlanSpec): SubjectAccounts {
    this.accounts = new SubjectAccounts(issuer, this.subjectPolicy ?? { defaultPlan: fallback, subjects: [] });
    return this.accounts;
  }

  /** One key on the local plan: the configured key, or `demo`. */
  static single(key: string = DEFAULT_KEY): KeyStore {
    const { name, credits, rateLimit } = LOCAL_PLAN;
    return new KeyStore([record(key, name, credits, { ...rateLimit }, name, null)]);
  }

  static fromFile(path: string): KeyStore {
    let text: string;
    try {
      text = readBounded(path, MAX_KEYS_FILE_BYTES);
    } catch (err) {
      if (err instanceof TooLargeError)
        throw new KeysFileError(
          `keys file ${path} holds ${err.message}, past the limit for a keys file; point CRYPTO_METRICS_KEYS_FILE (--keys-file) at the JSON keys file`,
        );
      const code = (err as NodeJS.ErrnoException).code ?? "unreadable";
      throw new KeysFileError(`keys file ${path} cannot be read (${code}); fix CRYPTO_METRICS_KEYS_FILE or unset it to use the local key`);
    }
    return KeyStore.fromJson(text, path);
  }

  /** Parses and validates the keys file contract; errors name the entry, never the key itself. */
  static fromJson(text: string, source = "keys file"): KeyStore {
    const fail = (message: string): never => {
      throw new KeysFileError(`${source}: ${message}`);
    };
    const doc = parseKeysJson(text, fail);
    if (!isObject(doc)) return fail(`must be a JSON object with "plans" and "keys"`);
    checkFields(doc, ["plans", "keys", "oauth"], "the top level", fail);
    const plans = plansOf(doc["plans"] ?? {}, fail);
    // With an `oauth` section the file may hold no keys: its users sign in instead.
    const rawKeys = doc["keys"] ?? (doc["oauth"] !== undefined ? [] : undefined);
    if (!Array.isArray(rawKeys) || (rawKeys.length === 0 && doc["oauth"] === undefined))
      fail(`"keys" must be a non-empty array of {key, plan?, credits?, rateLimit?, metrics?}`);
    const records = keyRecordsOf(rawKeys as unknown[], plans, fail);
    const policy = doc["oauth"] === undefined ? undefined : subjectPolicyOf(doc["oauth"], plans, fail);
    return new KeyStore(records, policy);
  }

  get size(): number {
    return this.byDigest.size;
  }

  /** The record of a presented key, or undefined. Lookup by digest, then a constant-time compare. */
  lookup(presented: string): KeyRecord | undefined {
    if (this.accounts && presented.startsWith(SubjectAccounts.PREFIX)) return this.accounts.byCredential(presented);
    const hex = sha256Hex(presented);
    const found = this.byDigest.get(hex);
    return found && equalBytes(found.digest, Buffer.from(hex, "hex")) ? found : undefined;
  }
}
