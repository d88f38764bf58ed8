/**
 * newIdempotencyKey returns a fresh random Idempotency-Key: 128 bits from the
 * platform's cryptographic generator (Web Crypto, in browsers and Node alike),
 * so that the keys of different calls never meet. The SDK sends one with every
 * POST and keeps it for that call's retries, so that a retry after a lost
 * answer is applied once. Give your own (CallOptions.idempotencyKey), derived
 * from your record ("po-4711-line-1"), when a later call or a later run of your
 * program may send the same request again.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
