// Incremental syncs: everything first, then only what changed after the mark.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Server } from "../support/server.js";

export function syncTests(server: Server): void {
  describe("incremental sync", () => {
    // No settling margin: the mark is just after the newest change, as long
    // as the server's clock (its Date header, to the second) is past it.
    const client = server.client({ syncSettleMs: 0 });

    it("returns every item, then only the ones changed after the mark", async () => {
      await client.createItem({ shortID: "SYNC-1" });
      await client.createItem({ shortID: "SYNC-2" });
      await new Promise((resolve) => setTimeout(resolve, 1100)); // into the server's next second
      const first = await client.itemChanges();
      const all = await client.listItems({ includeDiscontinued: true, pageSize: 250 });
      assert.equal(first.records.length, all.totalCount);
      assert.ok(first.mark !== undefined && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/.test(first.mark), first.mark);

      await client.updateItem({ shortID: "SYNC-2", description: "changed" });
      const second = await client.itemChanges(first.mark);
      assert.deepEqual(
        second.records.map((it) => [it.shortID, it.description]),
        [["SYNC-2", "changed"]],
      );
      assert.ok(second.mark !== undefined && second.mark >= first.mark, "the mark never moves backwards");
    });

    it("reads a filtered list of more than a page, each record once", async () => {
      const lots = await client.lotChanges(undefined, { itemID: "PAGE-600" });
      assert.equal(lots.records.length, 600);
      assert.equal(new Set(lots.records.map((l) => l.recNo)).size, 600);
      const levels = await client.stockLevelChanges(new Date(0), { itemID: "PAGE-600" });
      assert.deepEqual(
        levels.records.map((l) => [l.shortID, l.inStock.toString()]),
        [["PAGE-600", "180300"]],
      );
    });
  });
}
