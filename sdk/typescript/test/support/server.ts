// The tests' server: the real `stockroom serve`, built from this repository,
// on a free loopback port with a fresh SQLite file of its own.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client, type ClientOptions } from "../../src/index.js";

/** repoRoot is the repository: this file runs from sdk/typescript/build/test/support. */
const repoRoot = fileURLToPath(new URL("../../../../../", import.meta.url));

let binary: Promise<string> | undefined;

/**
 * serverBinary builds the server once per test process with `go build`, or
 * uses STOCKROOM_BIN when it names a binary built already (CI builds it once).
 */
export function serverBinary(): Promise<string> {
  binary ??= (async () => {
    const given = process.env["STOCKROOM_BIN"];
    if (given !== undefined && given !== "") return given;
    const dir = await mkdtemp(join(tmpdir(), "stockroom-bin-"));
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, "stockroom");
    await promisify(execFile)("go", ["build", "-o", out, "./cmd/stockroom"], { cwd: repoRoot });
    return out;
  })();
  return binary;
}

/** Server is a running `stockroom serve` and the administrator credential its first start printed. */
export interface Server {
  url: string;
  clientId: string;
  clientSecret: string;
  /** client returns an SDK client of the server with the administrator's credential. */
  client(options?: Partial<ClientOptions>): Client;
  /** stop ends the server and removes its database. */
  stop(): Promise<void>;
}

/** startServer starts a server on a fresh database; args are extra flags of serve (`--rate-limit 60`). */
export async function startServer(...args: string[]): Promise<Server> {
  const bin = await serverBinary();
  const dir = await mkdtemp(join(tmpdir(), "stockroom-sdk-"));
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--db", `sqlite:${join(dir, "stockroom.db")}`, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = once(child, "exit");

  const deadline = Date.now() + 60_000;
  for (;;) {
    // The credential is printed before the server listens.
    const addr = listeningAddr(stderr);
    const id = /client_id=(\S+)/.exec(stdout)?.[1];
    const secret = /client_secret=(\S+)/.exec(stdout)?.[1];
    if (addr !== undefined && id !== undefined && secret !== undefined) {
      const url = `http://${addr}`;
      return {
        url,
        clientId: id,
        clientSecret: secret,
        client: (options = {}) => new Client({ baseUrl: url, clientId: id, clientSecret: secret, ...options }),
        stop: async () => {
          if (child.exitCode === null) child.kill("SIGTERM");
          await exited;
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`stockroom serve did not start (exit ${child.exitCode}):\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** listeningAddr finds the address in the server's "listening" log line. */
function listeningAddr(log: string): string | undefined {
  for (const line of log.split("\n")) {
    try {
      const entry: unknown = JSON.parse(line);
      if (typeof entry === "object" && entry !== null && "msg" in entry && entry.msg === "listening" && "addr" in entry) {
        return String(entry.addr);
      }
    } catch {
      // not a log line
    }
  }
  return undefined;
}

/** Exchange is one request the SDK sent and the answer it got, as a test's fetch saw them. */
export interface Exchange {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
  status: number;
  responseHeaders: Headers;
}

/**
 * recorder returns a fetch that sends through the platform's fetch and
 * records every exchange, for tests that check what went over the wire.
 * fault, when given, may replace an answer after the server has sent it (to
 * lose it, say), so that what the server did is still real.
 */
export function recorder(fault?: (exchange: Exchange) => Error | undefined): {
  fetch: typeof globalThis.fetch;
  exchanges: Exchange[];
} {
  const exchanges: Exchange[] = [];
  const wrapped: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = init?.body == null ? undefined : String(init.body);
    const response = await fetch(request);
    const exchange: Exchange = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body,
      status: response.status,
      responseHeaders: response.headers,
    };
    exchanges.push(exchange);
    const err = fault?.(exchange);
    if (err !== undefined) {
      await response.body?.cancel();
      throw err;
    }
    return response;
  };
  return { fetch: wrapped, exchanges };
}
