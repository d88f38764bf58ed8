// Exact quantities: what is sent is what is stored is what comes back, to
// the sixth decimal and beyond what a binary float holds.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "../../src/index.js";
import { recorder, type Server } from "../support/server.js";

export function decimalTests(server: Server): void {
  describe("exact quantities", () => {
    const wire = recorder();
    const client = server.client({ fetch: wire.fetch });

    it("round-trips a quantity with 6 decimals, as a JSON number", async () => {
      await client.createItem({ shortID: "DEC-1" });
      wire.exchanges.length = 0;
      const received = await client.receive({ itemID: "DEC-1", units: "12.345678", price: "0.000001", wid: 1, reasonCode: 1 });
      assert.match(wire.exchanges[0]?.body ?? "", /"units":12\.345678,/);
      assert.match(wire.exchanges[0]?.body ?? "", /"price":0\.000001,/);
      assert.equal(received.lot.units.toString(), "12.345678");
      assert.equal(received.lot.price.toString(), "0.000001");
      const lot = (await client.listLots({ itemID: "DEC-1" })).value[0];
      assert.ok(lot?.units instanceof Decimal);
      assert.equal(lot.units.toString(), "12.345678");
    });

    it("keeps values that a binary float cannot hold", async () => {
      // 999999999999.999999 has 18 significant digits; as a float it is 1e12.
      assert.equal(Number("999999999999.999999"), 1e12);
      const received = await client.receive({
        itemID: "DEC-1",
        units: Decimal.parse("999999999999.999999"),
        wid: 1,
        reasonCode: 1,
      });
      assert.equal(received.lot.units.toString(), "999999999999.999999");
      const [level] = (await client.listStockLevels({ itemID: "DEC-1" })).value;
      assert.equal(level?.inStock.toString(), "1000000000012.345677");
      assert.equal(level?.inStock.micros, 1000000000012345677n);
    });

    it("reads a figure of 8000000000000, the most a level holds", async () => {
      await client.createItem({ shortID: "DEC-BIG" });
      for (let i = 0; i < 8; i++) {
        await client.receive({ itemID: "DEC-BIG", units: 1_000_000_000_000, wid: 1, reasonCode: 1 });
      }
      const [level] = (await client.listStockLevels({ itemID: "DEC-BIG" })).value;
      assert.equal(level?.inStock.toString(), "8000000000000");
      const issued = await client.issue({ itemID: "DEC-BIG", units: "0.000001", wid: 1, reasonCode: 20 });
      assert.equal(issued.lines[0]?.remaining.toString(), "999999999999.999999");
      const [after] = (await client.listStockLevels({ itemID: "DEC-BIG" })).value;
      assert.equal(after?.inStock.toString(), "7999999999999.999999");
    });
  });
}
