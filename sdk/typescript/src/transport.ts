import { ApiError, errorFrom, NetworkError, StockroomError } from "./errors.js";
import { newIdempotencyKey } from "./idempotency.js";
import { decodeJSON, encodeJSON } from "./json.js";
import type { Answer, Method, Operation, PathOf, RequestArgs } from "./operations.js";
import { type Token, TokenSource } from "./token.js";

/** ClientOptions configure a Client; only the server and the credentials are required. */
export interface ClientOptions {
  /**
   * baseUrl is the server (`https://stockroom.example.com`) or its API root
   * (`https://stockroom.example.com/api/v1`).
   */
  baseUrl: string;
  /** clientId and clientSecret are the client credentials (`stockroom client add` prints them). */
  clientId: string;
  clientSecret: string;
  /**
   * fetch sends the requests; the platform's global fetch by default. Pass
   * your own for a proxy, instrumentation or tests.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * maxRateLimitWaitMs bounds how long one call may spend waiting out 429
   * answers (the sum of the Retry-After pauses it honours); beyond it the 429
   * is thrown as a RateLimitError. 0 never waits. Default 120000 (2 minutes:
   * the specification asks clients to wait 30 to 60 seconds).
   */
  maxRateLimitWaitMs?: number;
  /**
   * retries is how often a call is repeated after a network failure, a 502,
   * 503 or 504, or a POST's 409 "still in progress". Every call is safe to
   * repeat: reads change nothing, PUT and DELETE set a state, and a POST is
   * repeated with the same Idempotency-Key. Default 2; 0 turns retries off.
   */
  retries?: number;
  /** retryBackoffMs is the pause before the first such retry, doubled for each further one (at most 30 s). Default 200. */
  retryBackoffMs?: number;
  /**
   * syncSettleMs is how far behind the server's clock the mark returned by the
   * *Changes methods is kept, so that a change committed late is not passed
   * over. Default 60000.
   */
  syncSettleMs?: number;
}

/** CallOptions are the per-call settings every method takes last. */
export interface CallOptions {
  /**
   * idempotencyKey replaces the random Idempotency-Key a POST gets. Derive it
   * from your own record ("po-4711-line-1") when a later call, or a later run
   * of your program after a crash, may send the same request again: within 24
   * hours the server applies it once and answers repeats with the first
   * answer. One key, one request: the same key with another body is an
   * IdempotencyMismatchError. Ignored by reads.
   */
  idempotencyKey?: string;
  /** signal aborts the call, waits and retries included. */
  signal?: AbortSignal;
}

/** Reply is an answer's decoded body with its headers. */
export interface Reply<A> {
  value: A;
  headers: Headers;
}

/** API_ROOT is the path every operation of the document starts with. */
const API_ROOT = "/api/v1";
/** DEFAULT_RETRY_AFTER_S is waited when a 429 has no Retry-After: the specification's 30 to 60 seconds. */
const DEFAULT_RETRY_AFTER_S = 30;

/** A request as it goes on the wire; the same for every attempt of one call. */
interface WireCall {
  method: string;
  /** path is for messages: "POST /api/v1/Inventory/Receive". */
  path: string;
  url: string;
  body: string | undefined;
  contentType: string | undefined;
  /** key is the Idempotency-Key, on POSTs. */
  key: string | undefined;
  /** public calls (POST /Token) carry no bearer token. */
  public: boolean;
  /** csv calls ask for CSV and answer the body unread, as a stream (exportCSV). */
  csv?: boolean;
}

/**
 * CSVPath is a list or report that answers `Accept: text/csv` with every
 * matching record as CSV (the document's "CSV exports").
 */
export type CSVPath =
  | "/api/v1/Inventory"
  | "/api/v1/Inventory/{wid}"
  | "/api/v1/Inventory/StockLevels"
  | "/api/v1/Inventory/StockLevels/{wid}"
  | "/api/v1/Inventory/Transactions"
  | "/api/v1/PurchaseOrder"
  | "/api/v1/PurchaseOrder/All"
  | "/api/v1/ShippingOrder"
  | "/api/v1/ShippingOrder/All"
  | "/api/v1/WorkOrder"
  | "/api/v1/WorkOrder/All"
  | "/api/v1/Transit"
  | "/api/v1/Transit/All"
  | "/api/v1/Report/{id}";

/**
 * Transport sends the API's requests: the token, the headers, the JSON codec,
 * and the retry rules, the same for every call. Client extends it with a
 * method per endpoint.
 */
export class Transport {
  readonly #root: string;
  readonly #fetch: typeof globalThis.fetch;
  readonly #maxRateLimitWaitMs: number;
  readonly #retries: number;
  readonly #backoffMs: number;
  readonly #tokens: TokenSource;
  /** syncSettleMs is ClientOptions.syncSettleMs, for the *Changes methods. */
  readonly syncSettleMs: number;

  constructor(options: ClientOptions) {
    this.#root = serverRoot(options.baseUrl);
    if (options.clientId === "" || options.clientSecret === "") {
      throw new TypeError("stockroom: a client id and a client secret are required");
    }
    const fetchImpl = options.fetch ?? globalThis.fetch;
    // Called as a plain function: a browser's fetch refuses another `this`.
    this.#fetch = (input, init) => fetchImpl(input, init);
    this.#maxRateLimitWaitMs = Math.max(options.maxRateLimitWaitMs ?? 120_000, 0);
    this.#retries = Math.max(options.retries ?? 2, 0);
    this.#backoffMs = Math.max(options.retryBackoffMs ?? 200, 0);
    this.syncSettleMs = Math.max(options.syncSettleMs ?? 60_000, 0);
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    this.#tokens = new TokenSource(async () => {
      const reply = await this.#send(
        {
          method: "POST",
          path: "POST /api/v1/Token",
          url: `${this.#root}/api/v1/Token`,
          body: form.toString(),
          contentType: "application/x-www-form-urlencoded",
          key: undefined,
          public: true,
        },
        undefined,
      );
      // The return type holds the document's Token schema to what the source reads.
      return reply.value as Answer<Operation<"/api/v1/Token", "post">>;
    });
  }

  /**
   * token returns the bearer token the client uses, asking POST /Token for
   * one first when there is none or it is about to expire. The other methods
   * do this themselves; token is for handing the token to another tool, or for
   * checking the credentials at start-up.
   */
  token(options: CallOptions = {}): Promise<Token> {
    return this.#tokens.current(options.signal);
  }

  /**
   * request calls method on path, an operation of the OpenAPI document, and
   * returns its decoded answer. The compiler holds path, parameters, body and
   * answer to the document.
   */
  async request<M extends Method, P extends PathOf<M>>(
    method: M,
    path: P,
    args: RequestArgs<Operation<P, M>>,
    options: CallOptions = {},
  ): Promise<Answer<Operation<P, M>>> {
    return (await this.exchange(method, path, args, options)).value;
  }

  /**
   * exchange is request, with the answer's headers: `Idempotent-Replayed`,
   * `X-Request-ID`, the rate limit's budget.
   */
  async exchange<M extends Method, P extends PathOf<M>>(
    method: M,
    path: P,
    args: RequestArgs<Operation<P, M>>,
    options: CallOptions = {},
  ): Promise<Reply<Answer<Operation<P, M>>>> {
    const call = this.#wire(method.toUpperCase(), path, args as LooseArgs, options);
    const reply = await this.#send(call, options.signal);
    // The codec cannot check a decoded body's shape; the server's answers are
    // held to the same document by its own test suite.
    return reply as Reply<Answer<Operation<P, M>>>;
  }

  /**
   * exportCSV downloads the CSV export of a list or a report (`path`, with
   * its filters or the report's parameters in `args`; paging does not apply):
   * a header row, then every matching record. It returns the answer's body as
   * a stream of bytes, read as the server writes it, so that an export of a
   * million lots is never held in memory; pipe it to a file, or read it with
   * its reader and a TextDecoder. A refusal (403 `Report access denied.`, 404, 400) is
   * an ApiError, as from any call; a transfer the server cut short ends the
   * stream with an error, never as a file that looks complete.
   *
   *     const csv = await client.exportCSV("/api/v1/Report/{id}", { params: { id: 15 }, query: { wid: 1 } });
   *     await pipeline(Readable.fromWeb(csv), createWriteStream("valuation.csv"));
   */
  async exportCSV<P extends CSVPath>(
    path: P,
    args: RequestArgs<Operation<P, "get">>,
    options: CallOptions = {},
  ): Promise<ReadableStream<Uint8Array>> {
    const call = { ...this.#wire("GET", path, args as LooseArgs, options), csv: true };
    const reply = await this.#send(call, options.signal);
    return reply.value as ReadableStream<Uint8Array>;
  }

  /** wire builds what every attempt of a call sends. */
  #wire(method: string, path: string, args: LooseArgs, options: CallOptions): WireCall {
    const { body } = args;
    const rel = path.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(String(args.params?.[name] ?? "")));
    const url = new URL(this.#root + rel);
    for (const [name, value] of Object.entries(args.query ?? {})) {
      if (value === undefined) continue;
      url.searchParams.set(name, value instanceof Date ? value.toISOString() : String(value));
    }
    return {
      method,
      path: `${method} ${path}`,
      url: url.toString(),
      body: body === undefined ? undefined : encodeJSON(body),
      contentType: body === undefined ? undefined : "application/json",
      key: method === "POST" ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined,
      public: false,
    };
  }

  /**
   * send sends a call until it has an answer to give: it renews the token
   * once after a 401, waits out 429s within maxRateLimitWaitMs, and repeats a
   * call after a network failure, a 502, 503 or 504, or a POST's 409 with
   * Retry-After (an earlier attempt with the same Idempotency-Key still
   * running, say one whose answer the network lost: its answer will be
   * replayed), within the retries allowed.
   */
  async #send(call: WireCall, signal: AbortSignal | undefined): Promise<Reply<unknown>> {
    let rateWaitedMs = 0;
    let retries = 0;
    let renewed = false;
    for (;;) {
      const token = call.public ? undefined : (await this.#tokens.current(signal)).accessToken;
      let response: Response;
      let text: string;
      try {
        response = await this.#fetch(call.url, {
          method: call.method,
          headers: headers(call, token),
          ...(call.body === undefined ? {} : { body: call.body }),
          ...(signal === undefined ? {} : { signal }),
        });
        if (call.csv === true && response.ok && response.body !== null) {
          return { value: response.body, headers: response.headers };
        }
        text = await response.text();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (retries < this.#retries) {
          retries++;
          await sleep(this.#backoff(retries), signal);
          continue;
        }
        throw new NetworkError(`stockroom: ${call.path}: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      }
      if (response.ok) {
        return { value: decode(call, text), headers: response.headers };
      }
      const error: ApiError = errorFrom(response.status, response.headers, text);
      if (response.status === 401 && token !== undefined && !renewed) {
        // The token expired or was revoked before we thought: renew once.
        renewed = true;
        this.#tokens.invalidate(token);
        continue;
      }
      if (response.status === 429) {
        const waitMs = (error.retryAfter ?? DEFAULT_RETRY_AFTER_S) * 1000;
        if (rateWaitedMs + waitMs <= this.#maxRateLimitWaitMs) {
          rateWaitedMs += waitMs;
          await sleep(waitMs + jitter(waitMs / 10), signal);
          continue;
        }
      } else if (retryable(response.status, call, error) && retries < this.#retries) {
        retries++;
        await sleep(Math.max(this.#backoff(retries), (error.retryAfter ?? 0) * 1000), signal);
        continue;
      }
      throw error;
    }
  }

  /**
   * backoff is the pause before the n-th retry (n >= 1): retryBackoffMs
   * doubled for each earlier retry, at most 30 s, with some jitter so that many
   * clients do not retry in step.
   */
  #backoff(n: number): number {
    const ms = Math.min(this.#backoffMs * 2 ** Math.min(n - 1, 16), 30_000);
    return ms + jitter(ms / 4);
  }
}

/** LooseArgs is RequestArgs as the transport reads it, whatever the operation. */
interface LooseArgs {
  params?: Readonly<Record<string, string | number>>;
  query?: Readonly<Record<string, string | number | boolean | Date | undefined>>;
  body?: unknown;
}

/** decode reads a successful answer's body; an empty one is undefined. */
function decode(call: WireCall, text: string): unknown {
  if (text === "") return undefined;
  try {
    return decodeJSON(text);
  } catch (err) {
    throw new StockroomError(`stockroom: ${call.path}: the answer cannot be read: ${String(err)}`, { cause: err });
  }
}

/** retryable reports whether an answer may change if the same call is sent again. */
function retryable(status: number, call: WireCall, error: ApiError): boolean {
  if (status === 502 || status === 503 || status === 504) return true;
  return status === 409 && call.key !== undefined && error.retryAfter !== undefined;
}

/**
 * headers are the request headers of one attempt. Only headers that a
 * browser may send across origins after the server's preflight allows them
 * (contract §15: Authorization, Content-Type, Idempotency-Key, Prefer) are
 * sent, besides the always-allowed Accept.
 */
function headers(call: WireCall, token: string | undefined): Headers {
  const h = new Headers({ Accept: call.csv === true ? "text/csv" : "application/json", Prefer: "handling=strict" });
  if (call.contentType !== undefined) h.set("Content-Type", call.contentType);
  if (token !== undefined) h.set("Authorization", `Bearer ${token}`);
  if (call.key !== undefined) h.set("Idempotency-Key", call.key);
  return h;
}

/** serverRoot checks a base URL and returns the server's root, before API_ROOT. */
function serverRoot(baseUrl: string): string {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new TypeError(`stockroom: base URL ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if ((u.protocol !== "http:" && u.protocol !== "https:") || u.host === "") {
    throw new TypeError(`stockroom: base URL ${JSON.stringify(baseUrl)}: want http:// or https:// with a host`);
  }
  if (u.search !== "" || u.hash !== "") {
    throw new TypeError(`stockroom: base URL ${JSON.stringify(baseUrl)} must not have a query or fragment`);
  }
  let path = u.pathname.replace(/\/+$/, "");
  if (path.endsWith(API_ROOT)) path = path.slice(0, -API_ROOT.length);
  return u.origin + path;
}

/**
 * pathSegment escapes a key for use as one path segment: "/" becomes %2F, and
 * the segments "." and ".." are escaped so that nothing resolves them as
 * relative paths.
 */
export function pathSegment(s: string): string {
  if (s === "." || s === "..") return "%2E".repeat(s.length);
  return encodeURIComponent(s);
}

/** jitter returns a random duration in [0, ms). */
function jitter(ms: number): number {
  return Math.random() * ms;
}

/** sleep waits ms, or rejects with the signal's reason when it fires first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
