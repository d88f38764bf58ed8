// A batch of stock operations: all or nothing by default, each operation's
// answer of its own when not atomic.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { ConflictError } from "../../src/index.js";
import type { Server } from "../support/server.js";

export function batchTests(server: Server): void {
  describe("batch", () => {
    const client = server.client();

    before(async () => {
      await client.createItem({ shortID: "BATCH-TS" });
    });

    it("refuses an atomic batch by its first refusal, named, and changes nothing", async () => {
      await assert.rejects(
        client.batch({
          operations: [
            { op: "receive", itemID: "BATCH-TS", units: "2.5", wid: 1, reasonCode: 1 },
            { op: "issue", itemID: "BATCH-TS", units: 3, wid: 1, reasonCode: 20 },
          ],
        }),
        (err: unknown) => err instanceof ConflictError && err.details["operations[1]"]?.length === 1,
      );
      const [level] = (await client.listStockLevels({ itemID: "BATCH-TS", includeZero: true })).value;
      assert.equal(level?.inStock.toString(), "0");
    });

    it("answers each operation of a batch that is not atomic as its endpoint would", async () => {
      const res = await client.batch({
        atomic: false,
        operations: [
          { op: "receive", itemID: "BATCH-TS", units: "2.5", wid: 1, reasonCode: 1 },
          { op: "issue", itemID: "BATCH-TS", units: 3, wid: 1, reasonCode: 20 },
        ],
      });
      assert.deepEqual(
        res.results.map((r) => r.status),
        [201, 409],
      );
      const first = res.results[0]?.body;
      assert.ok(first !== undefined && "lot" in first);
      assert.equal(first.lot.units.toString(), "2.5");
    });
  });
}
