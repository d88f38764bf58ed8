/** Token is a bearer token as POST /Token issued it. */
export interface Token {
  accessToken: string;
  tokenType: string;
  /** expiresIn is the lifetime the server granted, in seconds. */
  expiresIn: number;
  /** expiry is when the token runs out by this machine's clock: when it was asked for, plus expiresIn. */
  expiry: Date;
}

/** TokenAnswer is the body of POST /Token's answer. */
export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
}

interface HeldToken {
  token: Token;
  /** renewAt is when the source stops handing the token out and asks for a new one (ms since the epoch). */
  renewAt: number;
}

/**
 * renewMarginMs is how long before expiry a token is renewed: a minute, or a
 * fifth of the lifetime of short-lived tokens, so that a request sent just
 * before expiry does not arrive just after it.
 */
function renewMarginMs(lifetimeMs: number): number {
  return Math.min(60_000, lifetimeMs / 5);
}

/**
 * TokenSource keeps a client's token: asked for on first use, renewed before
 * it expires or after the server refused it. Concurrent callers that find it
 * missing or stale share one token request, so a burst of calls, or a burst of
 * 401s after the server revoked the token, costs one POST /Token.
 */
export class TokenSource {
  readonly #fetchToken: () => Promise<TokenAnswer>;
  #held: HeldToken | undefined;
  #inflight: Promise<HeldToken> | undefined;

  /** fetchToken makes one POST /Token with the client's credentials. */
  constructor(fetchToken: () => Promise<TokenAnswer>) {
    this.#fetchToken = fetchToken;
  }

  /**
   * current returns a token that is not about to expire, fetching one if
   * needed. The fetch is not tied to the caller's signal: a caller that gives
   * up stops waiting, and the others still get the token.
   */
  async current(signal?: AbortSignal): Promise<Token> {
    if (this.#held !== undefined && Date.now() < this.#held.renewAt) return this.#held.token;
    this.#inflight ??= this.#fetch().finally(() => {
      this.#inflight = undefined;
    });
    return (await abortable(this.#inflight, signal)).token;
  }

  /** invalidate forgets accessToken after the server refused it, unless another caller has replaced it already. */
  invalidate(accessToken: string): void {
    if (this.#held?.token.accessToken === accessToken) this.#held = undefined;
  }

  async #fetch(): Promise<HeldToken> {
    const requested = Date.now();
    const answer = await this.#fetchToken();
    const lifetimeMs = answer.expires_in * 1000;
    const token: Token = {
      accessToken: answer.access_token,
      tokenType: answer.token_type,
      expiresIn: answer.expires_in,
      expiry: new Date(requested + lifetimeMs),
    };
    this.#held = { token, renewAt: requested + lifetimeMs - renewMarginMs(lifetimeMs) };
    return this.#held;
  }
}

/** abortable waits for promise, or rejects with the signal's reason when it fires first. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
