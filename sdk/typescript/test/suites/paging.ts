// Paging: an async iterator walks 600 lots, 250 a page; a page reads its
// envelope; breaking out of a walk reads no further page.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { Decimal } from "../../src/index.js";
import { recorder, type Server } from "../support/server.js";

const LOTS = 600;

export function pagingTests(server: Server): void {
  describe("paging", () => {
    const wire = recorder();
    const client = server.client({ fetch: wire.fetch });

    before(async () => {
      await client.createItem({ shortID: "PAGE-600", description: "600 lots" });
      // Ten receipts at a time: lot n holds n units, in bin P-n.
      for (let n = 1; n <= LOTS; n += 10) {
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            client.receive({ itemID: "PAGE-600", units: n + i, wid: 1, reasonCode: 1, spot: `P-${n + i}` }),
          ),
        );
      }
    });

    it("walks 600 lots with for await, reading three pages of 250", async () => {
      wire.exchanges.length = 0;
      const recNos = new Set<number>();
      let total = Decimal.ZERO;
      for await (const lot of client.lots({ itemID: "PAGE-600" })) {
        recNos.add(lot.recNo);
        total = total.plus(lot.units);
      }
      assert.equal(recNos.size, LOTS);
      assert.equal(total.toString(), String((LOTS * (LOTS + 1)) / 2));
      const pages = wire.exchanges
        .filter((e) => e.url.pathname === "/api/v1/Inventory")
        .map((e) => [e.url.searchParams.get("page"), e.url.searchParams.get("pageSize")]);
      assert.deepEqual(pages, [
        ["1", "250"],
        ["2", "250"],
        ["3", "250"],
      ]);
    });

    it("reads one page with its envelope, and a page past the end", async () => {
      const last = await client.listLots({ itemID: "PAGE-600", pageSize: 100, page: 6, sort: "units", direction: "ASC" });
      assert.equal(last.value.length, 100);
      assert.equal(last.value[0]?.units.toString(), "501");
      assert.deepEqual([last.totalCount, last.page, last.pageSize, last.pageCount, last.hasMore], [LOTS, 6, 100, 6, false]);
      const past = await client.listLots({ itemID: "PAGE-600", pageSize: 100, page: 7 });
      assert.deepEqual([past.value.length, past.totalCount, past.hasMore], [0, LOTS, false]);
    });

    it("reads no further page once the loop breaks", async () => {
      wire.exchanges.length = 0;
      let seen = 0;
      for await (const lot of client.lots({ itemID: "PAGE-600", wid: 1, pageSize: 200 })) {
        assert.equal(lot.wID, 1);
        if (++seen === 300) break;
      }
      assert.equal(wire.exchanges.filter((e) => e.url.pathname === "/api/v1/Inventory/1").length, 2);
    });
  });
}
