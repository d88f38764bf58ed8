// Decimal and the JSON codec, without a server.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "../src/index.js";
import { decodeJSON, encodeJSON } from "../src/json.js";

describe("Decimal", () => {
  it("parses JSON numbers exactly and writes them as the API does", () => {
    const cases: [string, string][] = [
      ["500", "500"],
      ["12.5", "12.5"],
      ["12.50", "12.5"],
      ["-0.000001", "-0.000001"],
      ["-0", "0"],
      ["0.0000000", "0"],
      ["8000000000000", "8000000000000"],
      ["999999999999.999999", "999999999999.999999"],
      ["1.5e3", "1500"],
      ["1234567e-6", "1.234567"],
      ["1E+2", "100"],
      ["007.10", "7.1"],
    ];
    for (const [text, want] of cases) assert.equal(Decimal.parse(text).toString(), want, text);
  });

  it("refuses what is not a decimal of at most 6 digits after the point", () => {
    for (const text of ["", "1.", ".5", "+1", "1,5", "0x10", "NaN", "1 ", "1e"]) {
      assert.throws(() => Decimal.parse(text), SyntaxError, text);
    }
    for (const text of ["0.0000001", "1e-7", "1.0000001", "5e-20", "1e60"]) {
      assert.throws(() => Decimal.parse(text), RangeError, text);
    }
    assert.throws(() => Decimal.from(0.1 + 0.2), RangeError);
    assert.throws(() => Decimal.from(Number.NaN), RangeError);
  });

  it("takes a number as the shortest decimal that reads back as it", () => {
    assert.equal(Decimal.from(12.345678).toString(), "12.345678");
    assert.equal(Decimal.from(1e21).toString(), "1000000000000000000000");
    assert.equal(Decimal.from(-2.5).micros, -2500000n);
  });

  it("adds, subtracts and compares exactly", () => {
    const a = Decimal.parse("0.1");
    assert.equal(a.plus("0.2").toString(), "0.3");
    assert.equal(Decimal.parse("8000000000000").minus("0.000001").toString(), "7999999999999.999999");
    assert.equal(a.compare(0.2), -1);
    assert.equal(a.compare("0.10"), 0);
    assert.ok(a.equals(Decimal.fromMicros(100000n)));
    assert.equal(Decimal.parse("-3").sign(), -1);
    assert.equal(JSON.stringify({ units: Decimal.parse("2.5") }), '{"units":"2.5"}');
  });
});

describe("the JSON codec", () => {
  it("decodes decimal fields to Decimal and integers to numbers, losing nothing", () => {
    const value = decodeJSON(
      '{"recNo":9007199254740991,"units":999999999999.999999,"lines":[{"line":1,"units":12.345678}],"details":{"lots":[{"recNo":2,"units":-1.5}]}}',
    );
    assert.equal(
      encodeJSON(value),
      '{"recNo":9007199254740991,"units":999999999999.999999,"lines":[{"line":1,"units":12.345678}],"details":{"lots":[{"recNo":2,"units":-1.5}]}}',
    );
    assert.ok(typeof value === "object" && value !== null && "units" in value && value.units instanceof Decimal);
    assert.ok("recNo" in value && typeof value.recNo === "number");
  });

  it("refuses an integer a number cannot hold", () => {
    assert.throws(() => decodeJSON('{"recNo":9007199254740993}'), RangeError);
  });

  it("encodes Decimals, and numbers and strings in decimal fields, as exact JSON numbers", () => {
    assert.equal(
      encodeJSON({ itemID: "A", units: "12.50", price: Decimal.parse("0.000001"), wid: 1, lines: [{ line: 1, units: 2 }] }),
      '{"itemID":"A","units":12.5,"price":0.000001,"wid":1,"lines":[{"line":1,"units":2}]}',
    );
    assert.equal(encodeJSON({ spot: "12.5", units: undefined }), '{"spot":"12.5"}');
    assert.throws(() => encodeJSON({ units: "twelve" }), SyntaxError);
  });
});
