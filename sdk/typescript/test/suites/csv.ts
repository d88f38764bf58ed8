// CSV exports: a list or a report downloaded as a stream, the header row
// first and every row after it, paging ignored; a refusal is an ApiError.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { NotFoundError, BadRequestError } from "../../src/index.js";
import type { Server } from "../support/server.js";

/** text reads a stream of bytes whole, as a test may. */
async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let out = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out + decoder.decode();
    out += decoder.decode(value, { stream: true });
  }
}

export function csvTests(server: Server): void {
  describe("CSV exports", () => {
    const client = server.client();

    before(async () => {
      await client.createItem({ shortID: "CSV-1", description: "exported" });
      await client.receive({ itemID: "CSV-1", units: "0.000001", wid: 1, reasonCode: 1, spot: "C-1", price: "3" });
      await client.receive({ itemID: "CSV-1", units: "1234567.5", wid: 1, reasonCode: 1, spot: "C-2", price: "0.5" });
    });

    it("streams a list's every row, exact decimals, paging ignored", async () => {
      const csv = await text(
        await client.exportCSV("/api/v1/Inventory", { query: { itemID: "CSV-1", sort: "units", pageSize: 1 } }),
      );
      const rows = csv.trimEnd().split("\n");
      assert.equal(rows.length, 3);
      const units = rows[0]?.split(",").indexOf("units") ?? -1;
      assert.deepEqual(
        rows.slice(1).map((r) => r.split(",")[units]),
        ["0.000001", "1234567.5"],
      );
    });

    it("streams a report with its columns as the header", async () => {
      const csv = await text(await client.exportCSV("/api/v1/Report/{id}", { params: { id: 15 }, query: { wid: 1 } }));
      const rows = csv.trimEnd().split("\n");
      assert.equal(rows[0], "partNo,itemID,wid,units,unitCost,totalValue");
      const row = rows.find((r) => r.split(",")[1] === "CSV-1");
      assert.equal(row?.split(",").slice(3).join(","), "1234567.500001,0.5,617283.750003");
    });

    it("answers a refusal as an ApiError", async () => {
      await assert.rejects(client.exportCSV("/api/v1/Report/{id}", { params: { id: 99 }, query: {} }), NotFoundError);
      await assert.rejects(
        client.exportCSV("/api/v1/Report/{id}", { params: { id: 22 }, query: {} }),
        (err: unknown) => err instanceof BadRequestError && err.status === 400,
      );
      await assert.rejects(client.exportCSV("/api/v1/Inventory/{wid}", { params: { wid: 99 }, query: {} }), NotFoundError);
    });
  });
}
