// Idempotency keys: one on every POST, new per call, the caller's when given,
// the same for the SDK's own retries; a replay answers the first answer again.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { Lot } from "../../src/index.js";
import { recorder, type Server } from "../support/server.js";

export function idempotencyTests(server: Server): void {
  describe("idempotency", () => {
    const wire = recorder();
    const client = server.client({ fetch: wire.fetch });

    async function lotsOf(itemID: string): Promise<Lot[]> {
      const lots: Lot[] = [];
      for await (const lot of client.lots({ itemID })) lots.push(lot);
      return lots;
    }

    before(async () => {
      await client.createItem({ shortID: "IDEM-1" });
    });

    it("sends a fresh Idempotency-Key with every POST, none with other methods, and Prefer: handling=strict with all", async () => {
      wire.exchanges.length = 0;
      await client.receive({ itemID: "IDEM-1", units: 1, wid: 1, reasonCode: 1 });
      await client.receive({ itemID: "IDEM-1", units: 1, wid: 1, reasonCode: 1 });
      await client.updateItem({ shortID: "IDEM-1", description: "keys" });
      await client.listWarehouses();
      const keys = wire.exchanges.map((e) => [e.method, e.headers.get("Idempotency-Key")]);
      const [first, second, put, get] = keys;
      assert.ok(first?.[0] === "POST" && typeof first[1] === "string" && first[1].length >= 16);
      assert.ok(second?.[0] === "POST" && typeof second[1] === "string" && second[1] !== first[1]);
      assert.deepEqual([put, get], [
        ["PUT", null],
        ["GET", null],
      ]);
      for (const e of wire.exchanges) assert.equal(e.headers.get("Prefer"), "handling=strict");
    });

    it("replays a request sent again with the same key: the same answer, Idempotent-Replayed, nothing applied twice", async () => {
      await client.createItem({ shortID: "IDEM-2" });
      const request = { itemID: "IDEM-2", units: 7, wid: 1, reasonCode: 1, reference: "PO-4711" };
      wire.exchanges.length = 0;
      const first = await client.receive(request, { idempotencyKey: "po-4712-line-1" });
      const again = await client.receive(request, { idempotencyKey: "po-4712-line-1" });
      assert.equal(JSON.stringify(again), JSON.stringify(first));
      assert.deepEqual(
        wire.exchanges.map((e) => [e.headers.get("Idempotency-Key"), e.responseHeaders.get("Idempotent-Replayed")]),
        [
          ["po-4712-line-1", null],
          ["po-4712-line-1", "true"],
        ],
      );
      assert.equal((await lotsOf("IDEM-2")).length, 1);
    });

    it("retries a POST whose answer was lost with the same key, and the server applies it once", async () => {
      await client.createItem({ shortID: "IDEM-3" });
      // The first answer to the receipt is lost on its way back, after the
      // server applied it: the SDK sends it again, under the same key.
      let receipts = 0;
      const lossy = recorder((e) =>
        e.url.pathname === "/api/v1/Inventory/Receive" && ++receipts === 1
          ? new TypeError("fetch failed: the connection was reset")
          : undefined,
      );
      const flaky = server.client({ fetch: lossy.fetch, retryBackoffMs: 10 });
      const result = await flaky.receive({ itemID: "IDEM-3", units: 3, wid: 1, reasonCode: 1 });
      const sent = lossy.exchanges.filter((e) => e.url.pathname === "/api/v1/Inventory/Receive");
      assert.equal(sent.length, 2);
      assert.equal(sent[0]?.headers.get("Idempotency-Key"), sent[1]?.headers.get("Idempotency-Key"));
      assert.deepEqual(
        sent.map((e) => [e.status, e.responseHeaders.get("Idempotent-Replayed")]),
        [
          [201, null],
          [201, "true"],
        ],
      );
      const lots = await lotsOf("IDEM-3");
      assert.deepEqual(
        lots.map((l) => l.recNo),
        [result.recNo],
      );
    });
  });
}
