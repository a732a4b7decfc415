// Debian's nginx as a child process of the test: its own prefix, configuration and logs in a
// temporary directory, one loopback port, not a daemon and not the system service. The server block
// includes the shipped deploy/nginx/crypto-metrics-mcp-locations.conf, so the proxy settings tested
// are the ones operators install; only TLS is left out (loopback, plain HTTP).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const LOCATIONS = resolve(import.meta.dirname, "../deploy/nginx/crypto-metrics-mcp-locations.conf");

/** The nginx binary: on PATH, or where Debian puts it (/usr/sbin is not on every user's PATH). */
export function nginxBinary(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  if (onPath) return onPath;
  return ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].find((p) => existsSync(p));
}

const binary = nginxBinary();
if (!binary) {
  const reason = "no nginx binary (apt-get install nginx; .ci/run installs it)";
  if (process.env["CI"] === "true") throw new Error(`${reason}; CI runs the reverse-proxy tests, so nginx is required`);
  console.log(`skipped nginx tests: ${reason}`);
}
export const NGINX_AVAILABLE = binary !== undefined;

export interface RunningNginx {
  url: string;
  /** `status upstream request` per request, from the access log. */
  accessLog(): string[];
  close(): Promise<void>;
}

/** Starts nginx on `port` in front of `upstreams` (host:port each), round robin. */
export async function startNginx(port: number, upstreams: readonly string[]): Promise<RunningNginx> {
  if (!binary) throw new Error("nginx is not installed");
  const prefix = mkdtempSync(join(tmpdir(), "cm-nginx-"));
  mkdirSync(join(prefix, "tmp"));
  const conf = join(prefix, "nginx.conf");
  writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes 1;
error_log ${prefix}/error.log warn;
pid ${prefix}/nginx.pid;
events { worker_connections 512; }
http {
  log_format upstreams '$status $upstream_addr $request_uri';
  access_log ${prefix}/access.log upstreams;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  upstream crypto_metrics_mcp {
${upstreams.map((u) => `    server ${u};`).join("\n")}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    server_name _;
    include ${LOCATIONS};
  }
}
`,
  );
  const check = spawnSync(binary, ["-t", "-p", prefix, "-c", conf, "-g", "daemon off;"], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`nginx -t failed: ${check.stderr}`);
  const child: ChildProcess = spawn(binary, ["-p", prefix, "-c", conf, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => (stderr += b.toString()));
  const url = `http://127.0.0.1:${port}`;
  // Ready once the port answers (nginx prints nothing when it starts well).
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${readFileSync(join(prefix, "error.log"), "utf8")}`);
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      if (i > 100) throw new Error(`nginx did not answer on ${url}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    accessLog: () => readFileSync(join(prefix, "access.log"), "utf8").split("\n").filter(Boolean),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        // SIGQUIT: a graceful stop (workers finish what they serve).
        child.kill("SIGQUIT");
      }),
  };
}
