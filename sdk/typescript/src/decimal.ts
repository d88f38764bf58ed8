/** SCALE is how many digits after the point a quantity may have (contract §1). */
const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);
/** A JSON number, leading zeros allowed. */
const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** The largest power of ten parse multiplies by: far beyond any figure the API allows. */
const MAX_SHIFT = 40;

/**
 * DecimalInput is what a request takes where the API wants a quantity: a
 * Decimal; a decimal string such as `"12.345678"`, taken exactly; or a
 * JavaScript number, taken as the shortest decimal that reads back as the same
 * number (what `String(n)` prints). That is the literal written in the program
 * when it has at most 15 significant digits; for more, use a string or a
 * Decimal. A number or string with more than 6 digits after the point, such as
 * `0.1 + 0.2`, is refused before anything is sent.
 */
export type DecimalInput = Decimal | number | string;

/**
 * Decimal is an exact decimal quantity of the API: units, prices, weights and
 * stock figures, with up to 6 digits after the point. It is held as a whole
 * count of millionths (a bigint), so nothing a server sends, such as
 * `12.345678` or `8000000000000`, passes through binary floating point. It is a
 * value: every operation returns a new Decimal.
 *
 * Answers carry Decimals wherever the OpenAPI document has a JSON number;
 * requests take a Decimal, a string or a number (DecimalInput) and send it as
 * an exact JSON number.
 */
export class Decimal {
  readonly #micros: bigint;

  private constructor(micros: bigint) {
    this.#micros = micros;
  }

  /** ZERO is 0. */
  static readonly ZERO = new Decimal(0n);

  /**
   * parse reads a decimal in JSON number syntax (`500`, `-12.5`, `1.5e3`). It
   * throws a SyntaxError for anything else, and a RangeError for a value with
   * more than 6 digits after the point (trailing zeros aside).
   */
  static parse(text: string): Decimal {
    const m = NUMBER.exec(text);
    if (m === null) throw new SyntaxError(`Decimal: ${JSON.stringify(text)} is not a decimal number`);
    const [, sign = "", whole = "", fraction = "", exponent = "0"] = m;
    const digits = whole + fraction;
    let micros = BigInt(digits);
    if (micros === 0n) return Decimal.ZERO;
    const shift = Number(exponent) - fraction.length + SCALE;
    if (shift > MAX_SHIFT) throw new RangeError(`Decimal: ${text} is too large`);
    if (shift > 0) {
      micros *= 10n ** BigInt(shift);
    } else if (shift < 0) {
      const divisor = -shift > digits.length ? 0n : 10n ** BigInt(-shift);
      if (divisor === 0n || micros % divisor !== 0n) {
        throw new RangeError(`Decimal: ${text} has more than ${SCALE} digits after the point`);
      }
      micros /= divisor;
    }
    return new Decimal(sign === "-" ? -micros : micros);
  }

  /** from converts what a request may give for a quantity; see DecimalInput. */
  static from(value: DecimalInput): Decimal {
    if (value instanceof Decimal) return value;
    if (typeof value === "string") return Decimal.parse(value);
    if (!Number.isFinite(value)) throw new RangeError(`Decimal: ${value} is not a finite number`);
    return Decimal.parse(String(value));
  }

  /** fromMicros is the Decimal of a whole count of millionths. */
  static fromMicros(micros: bigint): Decimal {
    return new Decimal(micros);
  }

  /** micros is the value as a whole count of millionths. */
  get micros(): bigint {
    return this.#micros;
  }

  /** plus returns this + other. */
  plus(other: DecimalInput): Decimal {
    return new Decimal(this.#micros + Decimal.from(other).#micros);
  }

  /** minus returns this − other. */
  minus(other: DecimalInput): Decimal {
    return new Decimal(this.#micros - Decimal.from(other).#micros);
  }

  /** compare returns -1, 0 or 1 as this is less than, equal to or greater than other. */
  compare(other: DecimalInput): -1 | 0 | 1 {
    const o = Decimal.from(other).#micros;
    return this.#micros < o ? -1 : this.#micros > o ? 1 : 0;
  }

  /** equals reports whether this and other are the same number (`12.5` equals `"12.50"`). */
  equals(other: DecimalInput): boolean {
    return this.compare(other) === 0;
  }

  /** sign returns -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return this.compare(Decimal.ZERO);
  }

  /** toString writes the value as the API does: `500`, `12.5`, `-0.000001`. */
  toString(): string {
    const negative = this.#micros < 0n;
    const abs = negative ? -this.#micros : this.#micros;
    const fraction = (abs % ONE).toString().padStart(SCALE, "0").replace(/0+$/, "");
    return `${negative ? "-" : ""}${abs / ONE}${fraction === "" ? "" : `.${fraction}`}`;
  }

  /**
   * toNumber returns the nearest JavaScript number: exact for whole values up
   * to 2^53 and for most quantities, but not for every one. For display and
   * arithmetic that must be exact, keep the Decimal.
   */
  toNumber(): number {
    return Number(this.toString());
  }

  /**
   * toJSON makes JSON.stringify write the value as a string (it cannot write a
   * number without passing it through floating point). The SDK's own requests
   * do not use it: they send exact JSON numbers.
   */
  toJSON(): string {
    return this.toString();
  }

  /** Shows `Decimal(12.5)` in Node's console.log and util.inspect. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Decimal(${this.toString()})`;
  }
}
