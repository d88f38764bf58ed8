// The rate limit, on a server of its own with a budget of 60 requests a
// minute: one a second refills, so Retry-After is 1.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RateLimitError } from "../../src/index.js";
import { recorder, type Server, startServer } from "../support/server.js";

export function rateLimitTests(): void {
  describe("the rate limit", () => {
    let server: Server;
    before(async () => {
      server = await startServer("--rate-limit", "60");
    });
    after(() => server.stop());

    it("is a RateLimitError with Retry-After when the client may not wait", async () => {
      const impatient = server.client({ maxRateLimitWaitMs: 0 });
      let err: unknown;
      for (let calls = 0; calls < 100 && err === undefined; calls++) {
        await impatient.listWarehouses().catch((e: unknown) => (err = e));
      }
      assert.ok(err instanceof RateLimitError);
      assert.deepEqual([err.status, err.code, err.retryAfter], [429, "rate_limited", 1]);
      assert.equal(err.message, "Rate limit exceeded. Limit: 60 requests per minute.");
    });

    it("is waited out for Retry-After and the call succeeds", async () => {
      const wire = recorder();
      const patient = server.client({ fetch: wire.fetch });
      await patient.token();
      // Spend the budget the first test left, until the server refuses.
      const spender = server.client({ maxRateLimitWaitMs: 0 });
      for (let calls = 0; calls < 100; calls++) {
        if (await spender.listWarehouses().then(() => false, (e: unknown) => e instanceof RateLimitError)) break;
      }
      // Three calls, so that one meets the empty budget even if a request's
      // worth refilled in between.
      const started = Date.now();
      for (let i = 0; i < 3; i++) assert.equal((await patient.listWarehouses()).totalCount, 1);
      const statuses = wire.exchanges.filter((e) => e.url.pathname === "/api/v1/Warehouse").map((e) => e.status);
      assert.equal(statuses.filter((s) => s === 200).length, 3);
      assert.ok(statuses.includes(429), `statuses ${statuses.join(",")}: no 429 was waited out`);
      assert.ok(Date.now() - started >= 900, "the client waited for Retry-After");
    });
  });
}
