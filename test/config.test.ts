import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { ConfigError, describeConfig, loadConfig } from "../src/config.js";
import { defaultStateDir } from "../src/state-dir.js";

const HOME = { HOME: "/home/ana" };

describe("loadConfig", () => {
  it("defaults to stdio on loopback with the per-user state dir", () => {
    const c = loadConfig(HOME, []);
    expect(c.command).toBe("stdio");
    expect(c.host).toBe("127.0.0.1");
    expect(c.requireKey).toBe(false);
    expect(c.apiKey).toBeUndefined();
    expect(c.baseUrl).toBeUndefined();
    expect(c.logLevel).toBe("info");
    expect(c.fixedNowMs).toBeUndefined();
    expect(c.now).toBe(Date.now);
    if (process.platform === "linux") expect(c.stateDir).toBe("/home/ana/.local/state/crypto-metrics-mcp");
  });

  it("gives api port 8080 and http port 3000, and lets --port override (0 included)", () => {
    expect(loadConfig(HOME, ["api"]).port).toBe(8080);
    expect(loadConfig(HOME, ["http"]).port).toBe(3000);
    expect(loadConfig(HOME, ["api", "--port", "0"]).port).toBe(0);
    expect(loadConfig(HOME, ["http", "--port=9123", "--host", "0.0.0.0", "--require-key"])).toMatchObject({
      port: 9123,
      host: "0.0.0.0",
      requireKey: true,
    });
  });

  it("reads every environment variable", () => {
    const c = loadConfig(
      {
        ...HOME,
        CRYPTO_METRICS_API_KEY: "secret-key-123",
        CRYPTO_METRICS_BASE_URL: "https://api.example.com/v1/",
        CRYPTO_METRICS_KEYS_FILE: "/etc/keys.json",
        CRYPTO_METRICS_STATE_DIR: "/var/lib/cm",
        CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
        CRYPTO_METRICS_LOG_LEVEL: "DEBUG",
      },
      ["api"],
    );
    expect(c.apiKey).toBe("secret-key-123");
    expect(c.baseUrl).toBe("https://api.example.com/v1");
    expect(c.keysFile).toBe("/etc/keys.json");
    expect(c.stateDir).toBe("/var/lib/cm");
    expect(c.fixedNowMs).toBe(Date.parse("2025-12-31T12:00:00Z"));
    expect(c.now()).toBe(Date.parse("2025-12-31T12:00:00Z"));
    expect(c.logLevel).toBe("debug");
  });

  it("lets flags override the environment", () => {
    const c = loadConfig({ ...HOME, CRYPTO_METRICS_STATE_DIR: "/a", CRYPTO_METRICS_LOG_LEVEL: "warn" }, [
      "--state-dir",
      "/b",
      "--log-level",
      "error",
    ]);
    expect(c.stateDir).toBe("/b");
    expect(c.logLevel).toBe("error");
  });

  it("accepts a date-only or epoch-ms CRYPTO_METRICS_NOW", () => {
    expect(loadConfig({ ...HOME, CRYPTO_METRICS_NOW: "2025-06-01" }, []).fixedNowMs).toBe(Date.UTC(2025, 5, 1));
    expect(loadConfig({ ...HOME, CRYPTO_METRICS_NOW: "1767182400000" }, []).fixedNowMs).toBe(1767182400000);
  });

  it("hands call its tokens as given, for the call command to read with the tool's schema", () => {
    const c = loadConfig(HOME, ["call", "get_series", "--metric", "lifespan/Lth_mvrv", "--asset=btc", "--max_points", "50", "--help"]);
    expect(c.command).toBe("call");
    expect(c.help).toBe(false);
    expect(c.call).toEqual({ argv: ["get_series", "--metric", "lifespan/Lth_mvrv", "--asset=btc", "--max_points", "50", "--help"] });
  });

  it("takes the configuration flags anywhere among call's tokens", () => {
    const c = loadConfig(HOME, ["call", "--state-dir", "/s", "list_assets", "--search", "bit", "--log-level=error"]);
    expect(c.stateDir).toBe("/s");
    expect(c.logLevel).toBe("error");
    expect(c.call).toEqual({ argv: ["list_assets", "--search", "bit"] });
  });

  const bad: [string, Record<string, string>, string[], RegExp][] = [
    ["unknown command", HOME, ["serve"], /unknown command "serve"/],
    ["unknown flag", HOME, ["api", "--prot", "1"], /unknown flag --prot/],
    ["port out of range", HOME, ["api", "--port", "70000"], /--port must be a port number/],
    ["port not a number", HOME, ["api", "--port", "http"], /--port must be a port number/],
    ["port without value", HOME, ["api", "--port"], /--port needs a value/],
    ["port on stdio", HOME, ["--port", "1"], /--port applies to the http and api commands/],
    ["require-key on api", HOME, ["api", "--require-key"], /--require-key applies to the http command/],
    ["port on call", HOME, ["--port", "1", "call", "list_assets"], /--port applies to the http and api commands/],
    ["bad base URL", { ...HOME, CRYPTO_METRICS_BASE_URL: "not a url" }, [], /CRYPTO_METRICS_BASE_URL is not a URL/],
    ["ftp base URL", { ...HOME, CRYPTO_METRICS_BASE_URL: "ftp://x.example" }, [], /must use http or https/],
    ["base URL with credentials", { ...HOME, CRYPTO_METRICS_BASE_URL: "https://u:p@x.example" }, [], /must not carry credentials/],
    ["bad now", { ...HOME, CRYPTO_METRICS_NOW: "2025-02-30" }, [], /CRYPTO_METRICS_NOW is not a valid instant/],
    ["bad log level", { ...HOME, CRYPTO_METRICS_LOG_LEVEL: "loud" }, [], /CRYPTO_METRICS_LOG_LEVEL must be one of/],
  ];
  for (const [name, env, argv, message] of bad) {
    it(`rejects ${name} with a ConfigError naming the fix`, () => {
      expect(() => loadConfig(env, argv)).toThrow(ConfigError);
      expect(() => loadConfig(env, argv)).toThrow(message);
    });
  }

  it("never puts the key in an error or in the logged description", () => {
    const env = { ...HOME, CRYPTO_METRICS_API_KEY: "cdk_test_CANARY_123", CRYPTO_METRICS_BASE_URL: "::bad" };
    expect(() => loadConfig(env, [])).toThrow(/^(?!.*CANARY).*$/s);
    const ok = loadConfig({ ...HOME, CRYPTO_METRICS_API_KEY: "cdk_test_CANARY_123" }, ["api"]);
    expect(describeConfig(ok)).not.toContain("CANARY");
    expect(describeConfig(ok)).toContain("key=set");
  });
});

describe("defaultStateDir", () => {
  it("follows XDG on Linux, Application Support on macOS and LOCALAPPDATA on Windows", () => {
    expect(defaultStateDir({ HOME: "/h" }, "linux")).toBe("/h/.local/state/crypto-metrics-mcp");
    expect(defaultStateDir({ HOME: "/h", XDG_STATE_HOME: "/x" }, "linux")).toBe("/x/crypto-metrics-mcp");
    expect(defaultStateDir({ HOME: "/h", XDG_STATE_HOME: "relative" }, "linux")).toBe("/h/.local/state/crypto-metrics-mcp");
    expect(defaultStateDir({ HOME: "/Users/a" }, "darwin")).toBe("/Users/a/Library/Application Support/crypto-metrics-mcp");
    expect(defaultStateDir({ LOCALAPPDATA: "C:\\Users\\a\\AppData\\Local", USERPROFILE: "C:\\Users\\a" }, "win32")).toBe(
      join("C:\\Users\\a\\AppData\\Local", "crypto-metrics-mcp", "state"),
    );
  });
});
