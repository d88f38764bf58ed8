// The change feed through the SDK: follow it, stop, resume from a stored
// event id without meeting an event twice, and wait at its end for the next.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CursorExpiredError, type Event } from "../../src/index.js";
import type { Server } from "../support/server.js";

export function eventTests(server: Server): void {
  describe("change feed", () => {
    const client = server.client();

    it("follows, resumes from a stored id, and waits for the next event", async () => {
      await client.createItem({ shortID: "FEED-TS" });
      await client.receive({ itemID: "FEED-TS", units: "2.5", wid: 1, reasonCode: 1, spot: "F1" });
      let stored = "";
      let first: Event | undefined;
      for await (const e of client.events({ types: "inventory.received" })) {
        if (e.subject.kind === "lot" && (e.data as { lot?: { spot?: string } }).lot?.spot === "F1") {
          first = e;
          stored = e.id;
          break;
        }
      }
      assert.equal(first?.type, "inventory.received");
      setTimeout(() => void client.receive({ itemID: "FEED-TS", units: 1, wid: 1, reasonCode: 1, spot: "F2" }), 300);
      const started = Date.now();
      for await (const e of client.events({ after: stored, types: "inventory.received", wait: 20 })) {
        assert.notEqual(e.id, stored);
        assert.equal((e.data as { lot?: { spot?: string } }).lot?.spot, "F2");
        break;
      }
      assert.ok(Date.now() - started < 10_000, "the long poll answered when the receipt committed");
    });

    it("names a malformed cursor as a validation error of after", async () => {
      await assert.rejects(client.listEvents({ after: "not-a-cursor" }), (err: unknown) => {
        assert.ok(!(err instanceof CursorExpiredError));
        assert.deepEqual(Object.keys((err as { details: object }).details), ["after"]);
        return true;
      });
    });
  });
}
