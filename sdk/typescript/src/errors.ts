import type { components } from "./generated/openapi.js";
import { decodeJSON } from "./json.js";

/** ErrorCode is the API's machine-readable error code (the error object's `error`). */
export type ErrorCode = components["schemas"]["Error"]["error"];

/**
 * StockroomError is the base of every error the SDK throws on its own
 * account: ApiError when the server answered with a failure, NetworkError when
 * no answer came. Errors of the caller's own making (an AbortSignal that
 * fired, a quantity that is not a decimal) are thrown as they are.
 */
export class StockroomError extends Error {
  override name = "StockroomError";
}

/** NetworkError is a request that got no answer after the SDK's retries; `cause` says why. */
export class NetworkError extends StockroomError {
  override name = "NetworkError";
}

/**
 * ApiError is a failure the server explained: the contract's error object
 * (`{statusCode, error, message, details}`) and what the headers add. Each
 * status has its subclass, so that callers can tell them apart with
 * instanceof; `code` tells apart the failures that share a status
 * (`bad_request` and `validation_error` are both 400).
 */
export class ApiError extends StockroomError {
  override name = "ApiError";
  /** status is the HTTP status. */
  readonly status: number;
  /**
   * code is the error code: `validation_error`, `forbidden`, `conflict`...;
   * a 429, whose body holds only a message, has `rate_limited`.
   */
  readonly code: ErrorCode;
  /**
   * details maps each failing field of a `validation_error` to its messages
   * (`{"units": ["must be greater than 0"]}`); empty for other errors.
   */
  readonly details: Readonly<Record<string, readonly string[]>>;
  /** requestId is the server's X-Request-ID, the key to its log line. */
  readonly requestId: string | undefined;
  /** retryAfter is the Retry-After header in seconds, when the server sent one. */
  readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

/** ApiErrorInit is what an ApiError is made of. */
export interface ApiErrorInit {
  status: number;
  code: ErrorCode;
  message: string;
  details: Readonly<Record<string, readonly string[]>>;
  requestId: string | undefined;
  retryAfter: number | undefined;
}

/** BadRequestError is a 400: `bad_request` (malformed) or `validation_error` (see details). */
export class BadRequestError extends ApiError {
  override name = "BadRequestError";
}
/** UnauthorizedError is a 401: wrong credentials, or a token refused even after renewal. */
export class UnauthorizedError extends ApiError {
  override name = "UnauthorizedError";
}
/** ForbiddenError is a 403: a read-only account, a missing permission, or a warehouse or owner out of scope (see message). */
export class ForbiddenError extends ApiError {
  override name = "ForbiddenError";
}
/** NotFoundError is a 404: no such record, or one the client may not see. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
/** ConflictError is a 409: the state forbids it (too few units, a duplicate, a closed order...); nothing changed. */
export class ConflictError extends ApiError {
  override name = "ConflictError";
}
/** CursorExpiredError is a 410: a change-feed cursor older than the events the server keeps; start again from a full read. */
export class CursorExpiredError extends ApiError {
  override name = "CursorExpiredError";
}
/** IdempotencyMismatchError is a 422: an Idempotency-Key used before with another body. */
export class IdempotencyMismatchError extends ApiError {
  override name = "IdempotencyMismatchError";
}
/** RateLimitError is a 429 the SDK did not wait out (see ClientOptions.maxRateLimitWaitMs). */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
}
/** ServerError is a 5xx: `internal_error`, or `unavailable` (503) when retries did not help. */
export class ServerError extends ApiError {
  override name = "ServerError";
}

const classByStatus: Readonly<Record<number, typeof ApiError>> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  410: CursorExpiredError,
  422: IdempotencyMismatchError,
  429: RateLimitError,
};

/** codeByStatus names the code of an answer whose body is not the error object (a proxy's page, say). */
const codeByStatus: Readonly<Record<number, ErrorCode>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  410: "cursor_expired",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "idempotency_mismatch",
  429: "rate_limited",
  501: "not_implemented",
  502: "unavailable",
  503: "unavailable",
  504: "unavailable",
};

/** errorFrom builds the ApiError of a failed answer from its status, headers and body. */
export function errorFrom(status: number, headers: Headers, body: string): ApiError {
  const parsed = errorObject(body);
  let message = parsed?.message ?? "";
  if (message === "") {
    const text = body.trim();
    const readable = /^(application\/json|text\/plain)/.test(headers.get("Content-Type") ?? "");
    message = readable && text !== "" && text.length <= 200 ? text : `HTTP ${status}`;
  }
  const Class = classByStatus[status] ?? (status >= 500 ? ServerError : ApiError);
  return new Class({
    status,
    code: parsed?.code ?? codeByStatus[status] ?? "internal_error",
    message,
    details: parsed?.details ?? {},
    requestId: headers.get("X-Request-ID") ?? undefined,
    retryAfter: retryAfterSeconds(headers.get("Retry-After")),
  });
}

/** errorObject reads the contract's error object (or a 429's `{message}`) out of a body, if it is one. */
function errorObject(body: string): { code?: ErrorCode; message?: string; details?: Record<string, string[]> } | undefined {
  let value: unknown;
  try {
    value = decodeJSON(body);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const { error, message, details } = value as Record<string, unknown>;
  const out: { code?: ErrorCode; message?: string; details?: Record<string, string[]> } = {};
  if (typeof error === "string" && isErrorCode(error)) out.code = error;
  if (typeof message === "string") out.message = message;
  if (details !== null && typeof details === "object" && !Array.isArray(details)) {
    out.details = Object.fromEntries(
      Object.entries(details).map(([field, msgs]) => [field, Array.isArray(msgs) ? msgs.map(String) : [String(msgs)]]),
    );
  }
  return out;
}

/** codeNames lists every ErrorCode; the compiler holds it to the document's enum. */
const codeNames: Record<ErrorCode, true> = {
  bad_request: true,
  validation_error: true,
  unauthorized: true,
  forbidden: true,
  not_found: true,
  method_not_allowed: true,
  conflict: true,
  payload_too_large: true,
  unsupported_media_type: true,
  idempotency_mismatch: true,
  rate_limited: true,
  internal_error: true,
  not_implemented: true,
  unavailable: true,
  cursor_expired: true,
};

function isErrorCode(s: string): s is ErrorCode {
  return Object.hasOwn(codeNames, s);
}

/** retryAfterSeconds reads a Retry-After header, in seconds or as an HTTP date. */
export function retryAfterSeconds(value: string | null): number | undefined {
  const v = value?.trim() ?? "";
  if (v === "") return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
