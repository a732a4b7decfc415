// Builds the resource server of `http --auth oauth` from the configuration: the token verifier for
// the configured issuer and audience, and the accounts of its subjects. With the in-process service
// the accounts live in its keys; with the real service (CRYPTO_METRICS_BASE_URL) each user's reads
// are charged to their account in the metering store before going out under the operator's key.
import type { InProcessBackend } from "../../backend/inprocess/backend.js";
import { KeysFileError, KeyStore, LOCAL_PLAN } from "../../backend/inprocess/keys.js";
import { defaultStore, openStore } from "../../backend/inprocess/metering/index.js";
import type { Backend } from "../../backend/types.js";
import type { Config } from "../../config.js";
import { log } from "../../log.js";
import { AccountQuotaBackend } from "./account-quota.js";
import { ResourceServer } from "./resource-server.js";
import { TokenVerifier, type VerifierOptions } from "./verifier.js";

type OAuthConfig = Pick<Config, "issuer" | "publicUrl" | "keysFile"> & Partial<Pick<Config, "introspectionClient">>;

/** The resource server over the in-process service's own keys. */
export function oauthResourceServer(config: OAuthConfig, backend: Backend, verifierOptions: Partial<VerifierOptions> = {}): ResourceServer {
  if (backend.kind !== "inprocess")
    throw new Error("oauthResourceServer takes the in-process service; the real one goes through oauthForService");
  return resourceServer(config, (backend as InProcessBackend).service.keys, verifierOptions);
}

/**
 * The resource server in front of the real service, and the backend to serve with: the real
 * service behind each user's quota, metered in the configured store.
 */
export async function oauthForService(
  config: OAuthConfig & Pick<Config, "store" | "stateDir">,
  upstream: Backend,
  verifierOptions: Partial<VerifierOptions> = {},
): Promise<{ oauth: ResourceServer; backend: Backend }> {
  const keys = config.keysFile ? KeyStore.fromFile(config.keysFile) : new KeyStore([]);
  const oauth = resourceServer(config, keys, verifierOptions);
  const store = await openStore(config.store ?? defaultStore(config.stateDir), { checkpointInWorker: true });
  log.info("oauth: every user's reads go out under the operator's key, each charged to the user's own account first", {
    store: store.location,
  });
  return { oauth, backend: new AccountQuotaBackend(upstream, keys, store) };
}

function resourceServer(config: OAuthConfig, keys: KeyStore, verifierOptions: Partial<VerifierOptions>): ResourceServer {
  const { issuer, publicUrl } = config;
  if (!issuer || !publicUrl) throw new Error("--auth oauth needs --issuer and --public-url");
  if (config.keysFile && !keys.subjectPolicy)
    throw new KeysFileError(
      `keys file ${config.keysFile} has no "oauth" section, so no signed-in user has an account; add one, e.g. "oauth": {"defaultPlan": "free"} (every user on plan free), with "subjects" for per-user plans`,
    );
  if (!config.keysFile)
    log.warn(
      `oauth: no keys file, so every signed-in user gets the local plan (${LOCAL_PLAN.credits} credits); set CRYPTO_METRICS_KEYS_FILE with an "oauth" section to meter users on plans`,
    );
  const accounts = keys.acceptSubjects(issuer, {
    name: LOCAL_PLAN.name,
    credits: LOCAL_PLAN.credits,
    rateLimit: { ...LOCAL_PLAN.rateLimit },
  });
  const verifier = new TokenVerifier({ issuer, audience: publicUrl, introspectionClient: config.introspectionClient, ...verifierOptions });
  // Read once at start so a misconfigured issuer shows in the log at once; requests retry it on their own.
  verifier.issuerMetadata().then(
    (meta) => {
      log.info("oauth: authorization server metadata read", {
        issuer,
        jwks_uri: meta.jwks_uri,
        introspection: meta.introspection_endpoint !== undefined,
      });
      if (meta["client_id_metadata_document_supported"] !== true)
        log.info(
          "oauth: the authorization server does not advertise client ID metadata documents; claude.ai and VS Code fall back to dynamic registration",
        );
    },
    (err: unknown) =>
      log.error("oauth: authorization server metadata cannot be read yet; requests answer 503 until it can", {
        error: (err as Error).message,
      }),
  );
  return new ResourceServer({ issuer, publicUrl, verifier, accounts });
}
