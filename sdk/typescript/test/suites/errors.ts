// Failures as typed errors: each status its class, with the code, the
// message, the field details and the request id the server sent.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import {
  ApiError,
  BadRequestError,
  ConflictError,
  IdempotencyMismatchError,
  NotFoundError,
  StockroomError,
  UnauthorizedError,
} from "../../src/index.js";
import { recorder, type Server } from "../support/server.js";

/** rejection awaits a promise that must fail and returns what it threw. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  assert.fail("the call succeeded");
}

export function errorTests(server: Server): void {
  describe("errors", () => {
    const wire = recorder();
    const client = server.client({ fetch: wire.fetch });

    before(async () => {
      await client.createItem({ shortID: "ERR-1" });
      await client.receive({ itemID: "ERR-1", units: 5, wid: 1, reasonCode: 1 });
    });

    it("answers an issue of more than is in stock with a ConflictError, and changes nothing", async () => {
      const err = await rejection(client.issue({ itemID: "ERR-1", units: 6, wid: 1, reasonCode: 20 }));
      assert.ok(err instanceof ConflictError && err instanceof ApiError && err instanceof StockroomError);
      assert.equal(err.name, "ConflictError");
      assert.equal(err.status, 409);
      assert.equal(err.code, "conflict");
      assert.match(err.message, /6/);
      assert.match(err.message, /5/);
      assert.deepEqual(err.details, {});
      assert.equal(err.requestId, wire.exchanges.at(-1)?.responseHeaders.get("X-Request-ID"));
      assert.ok(err.requestId !== undefined && err.requestId !== "");
      const [level] = (await client.listStockLevels({ itemID: "ERR-1" })).value;
      assert.equal(level?.inStock.toString(), "5");
    });

    it("answers an unknown ShortID with a NotFoundError", async () => {
      const err = await rejection(client.findItemByShortID("NO-SUCH-ITEM"));
      assert.ok(err instanceof NotFoundError);
      assert.deepEqual([err.status, err.code], [404, "not_found"]);
    });

    it("answers invalid fields with a BadRequestError naming each", async () => {
      const err = await rejection(client.receive({ itemID: "ERR-1", units: 0, wid: 1, reasonCode: 1 }));
      assert.ok(err instanceof BadRequestError);
      assert.deepEqual([err.status, err.code], [400, "validation_error"]);
      assert.deepEqual(Object.keys(err.details), ["units"]);
    });

    it("answers a key used again with another body with an IdempotencyMismatchError", async () => {
      await client.receive({ itemID: "ERR-1", units: 1, wid: 1, reasonCode: 1 }, { idempotencyKey: "mismatch-1" });
      const err = await rejection(
        client.receive({ itemID: "ERR-1", units: 2, wid: 1, reasonCode: 1 }, { idempotencyKey: "mismatch-1" }),
      );
      assert.ok(err instanceof IdempotencyMismatchError);
      assert.deepEqual([err.status, err.code], [422, "idempotency_mismatch"]);
    });

    it("answers a wrong secret with an UnauthorizedError after one token request", async () => {
      const wrong = recorder();
      const stranger = server.client({ clientSecret: "not-the-secret-at-all", fetch: wrong.fetch });
      const err = await rejection(stranger.listWarehouses());
      assert.ok(err instanceof UnauthorizedError);
      assert.deepEqual([err.status, err.code], [401, "unauthorized"]);
      assert.deepEqual(
        wrong.exchanges.map((e) => `${e.method} ${e.url.pathname} ${e.status}`),
        ["POST /api/v1/Token 401"],
      );
    });

    it("refuses a quantity with more than 6 digits after the point before sending it", async () => {
      wire.exchanges.length = 0;
      await assert.rejects(client.receive({ itemID: "ERR-1", units: 0.1 + 0.2, wid: 1, reasonCode: 1 }), RangeError);
      await assert.rejects(client.receive({ itemID: "ERR-1", units: "1.0000001", wid: 1, reasonCode: 1 }), RangeError);
      assert.equal(wire.exchanges.length, 0);
    });
  });
}
