import { isLosslessNumber, LosslessNumber, parse, stringify } from "lossless-json";
import { Decimal } from "./decimal.js";
import { decimalFields } from "./generated/decimal-fields.js";

// The JSON codec. JSON.parse would turn every number into a binary float
// before the SDK could look at it, so answers are parsed by lossless-json,
// which keeps each number's text. Then a number in a field that the OpenAPI
// document types as a JSON number (decimalFields, generated from it) becomes
// a Decimal; every other number is one of the document's integers (ids,
// counts, line numbers) and becomes a JavaScript number.

/**
 * decodeJSON parses an answer's body. It throws a SyntaxError for text that
 * is not JSON, and a RangeError for an integer beyond 2^53, which a number
 * cannot hold exactly.
 */
export function decodeJSON(text: string): unknown {
  return revive(parse(text), false);
}

function revive(value: unknown, decimal: boolean): unknown {
  if (isLosslessNumber(value)) {
    return decimal ? Decimal.parse(value.value) : integer(value.value);
  }
  if (Array.isArray(value)) {
    return value.map((element: unknown) => revive(element, decimal));
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v, decimalFields.has(k))]));
  }
  return value;
}

function integer(text: string): number {
  const n = Number(text);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) {
    throw new RangeError(`stockroom: the answer holds ${text}, beyond what a JavaScript number holds exactly`);
  }
  return n;
}

/**
 * encodeJSON writes a request body. Decimals, and numbers or strings in the
 * document's decimal fields, are written as exact JSON numbers (a string or
 * number that is not a decimal of at most 6 digits after the point throws,
 * before anything is sent); undefined fields are left out, as JSON.stringify
 * leaves them.
 */
export function encodeJSON(value: unknown): string {
  return stringify(prepare(value, false)) ?? "null";
}

function prepare(value: unknown, decimal: boolean): unknown {
  if (value instanceof Decimal) return new LosslessNumber(value.toString());
  if (decimal && (typeof value === "number" || typeof value === "string")) {
    return new LosslessNumber(Decimal.from(value).toString());
  }
  if (Array.isArray(value)) {
    return value.map((element: unknown) => prepare(element, decimal));
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prepare(v, decimalFields.has(k))]));
  }
  return value;
}
