// The README's story through the SDK: a category and an item, a receipt, an
// issue, a move that splits a lot, a hold that keeps stock from an issue, the
// levels, the ledger, and a shipping order committed, packed and shipped.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConflictError, Decimal } from "../../src/index.js";
import type { Server } from "../support/server.js";

export function storyTests(server: Server): void {
  describe("the README's story", () => {
    const client = server.client();
    let partNo = 0;
    let movedLot = 0;
    let soNo = "";

    it("creates an item in a category, finds it in any letter case and changes it", async () => {
      const category = await client.createCategory({ categoryID: 4, name: "Fasteners" });
      assert.equal(category.categoryID, 4);
      const item = await client.createItem({
        shortID: "BOLT-M8",
        description: "Hex bolt M8x40",
        uOM: "EA",
        category: 4,
        units: 100,
      });
      assert.ok(item.partNo > 0);
      assert.equal(item.units.toString(), "100");
      assert.equal(item.active, true);
      partNo = item.partNo;

      const found = await client.findItemByShortID("bolt-m8");
      assert.equal(found.partNo, partNo);
      const updated = await client.updateItem({ shortID: "BOLT-M8", description: "Hex bolt M8x45" });
      assert.deepEqual(updated, { shortID: "BOLT-M8", status: "updated" });
      assert.equal((await client.getItem(partNo)).description, "Hex bolt M8x45");
    });

    it("receives 500, issues 12.5 and moves 100 to another bin, splitting the lot", async () => {
      const received = await client.receive({
        itemID: "BOLT-M8",
        units: 500,
        wid: 1,
        reasonCode: 1,
        spot: "A-01",
        reference: "PO-4711",
      });
      assert.equal(received.type, "receive");
      assert.equal(received.lot.spot, "A-01");
      assert.ok(received.lot.units.equals(500));

      const issued = await client.issue({ itemID: "BOLT-M8", units: "12.5", wid: 1, reasonCode: 20 });
      assert.equal(issued.lines.length, 1);
      assert.equal(issued.lines[0]?.units.toString(), "12.5");
      assert.equal(issued.lines[0]?.remaining.toString(), "487.5");

      const moved = await client.move({ itemID: "BOLT-M8", units: 100, wid: 1, fromSpot: "A-01", toSpot: "B-07" });
      assert.ok(!("transitID" in moved), "a move within the warehouse ships no transit");
      assert.equal(moved.type, "move");
      const line = moved.lines[0];
      assert.ok(line !== undefined && line.newRecNo !== received.recNo && line.newRecNo > 0);
      assert.equal(line.remaining.toString(), "387.5");
      movedLot = line.newRecNo;
    });

    it("holds the moved lot: held stock counts as onHold and is never issued", async () => {
      const held = await client.hold(movedLot);
      assert.equal(held.lot.hold, true);
      const [level] = (await client.listStockLevels({ itemID: "BOLT-M8" })).value;
      assert.equal(level?.inStock.toString(), "487.5");
      assert.equal(level?.onHold.toString(), "100");
      assert.equal(level?.available.toString(), "387.5");

      await assert.rejects(client.issue({ itemID: "BOLT-M8", units: 400, wid: 1, reasonCode: 20 }), ConflictError);
      const [after] = (await client.listStockLevels({ itemID: "BOLT-M8" })).value;
      assert.equal(after?.inStock.toString(), "487.5", "a refused issue changes nothing");

      const released = await client.release(movedLot);
      assert.equal(released.lot.hold, false);
    });

    it("lists the lots newest first and the ledger newest first", async () => {
      const lots = [];
      for await (const lot of client.lots({ itemID: "BOLT-M8" })) lots.push([lot.recNo, lot.spot, lot.units.toString()]);
      assert.deepEqual(lots, [
        [movedLot, "B-07", "100"],
        [1, "A-01", "387.5"],
      ]);
      const ledger = await client.listTransactions({ itemID: "BOLT-M8", pageSize: 2 });
      assert.deepEqual(
        ledger.value.map((t) => t.type),
        ["release", "hold"],
      );
      assert.equal(ledger.totalCount, 5);
      assert.equal(ledger.hasMore, true);
    });

    it("places a shipping order, commits, packs and ships it", async () => {
      await client.createCustomer({ shortID: "ACME", name: "Acme Logistics Ltd" });
      const order = await client.createShippingOrder({
        customerID: "ACME",
        shipDate: "2025-01-20",
        lines: [{ itemID: "BOLT-M8", units: 30, warehouse: 1 }],
      });
      assert.equal(order.status, "Open");
      assert.equal(order.customer, "Acme Logistics Ltd");
      soNo = order.soNo;

      const committed = await client.commitShippingOrder(soNo);
      assert.equal(committed.lines[0]?.unitsCommitted.toString(), "30");
      assert.equal(committed.lines[0]?.short.toString(), "0");
      let [level] = (await client.listStockLevels({ itemID: "BOLT-M8", wid: 1 })).value;
      assert.equal(level?.committed.toString(), "30");
      assert.equal(level?.available.toString(), "457.5");

      const packed = await client.packShippingOrder(soNo, { lines: [{ line: 1, units: 10 }] });
      assert.equal(packed.lines[0]?.unitsPacked.toString(), "10");
      assert.equal(packed.lines[0]?.unitsCommitted.toString(), "20");

      const shipped = await client.shipShippingOrder(soNo, { reference: "TRUCK-7" });
      assert.equal(shipped.status, "Closed");
      assert.equal(shipped.lines[0]?.unitsShipped.toString(), "30");
      [level] = (await client.listStockLevels({ itemID: "BOLT-M8" })).value;
      assert.deepEqual(
        [level?.inStock, level?.committed, level?.packed, level?.available].map((d) => d?.toString()),
        ["457.5", "0", "0", "457.5"],
      );
      assert.equal((await client.getShippingOrder(soNo.toLowerCase())).status, "Closed");
      const ships = await client.listTransactions({ itemID: "BOLT-M8", type: "ship" });
      assert.equal(ships.totalCount, 1);
      assert.ok(ships.value[0]?.units.equals(Decimal.parse("30")));
    });
  });
}
