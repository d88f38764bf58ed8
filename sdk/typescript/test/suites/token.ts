// Tokens: asked for on first use, reused, renewed once when the server
// refuses one.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UnauthorizedError } from "../../src/index.js";
import { recorder, type Server } from "../support/server.js";

/** stale returns a fetch that sends a token the server never issued on the first `times` API calls. */
function stale(times: number): ReturnType<typeof recorder> {
  const wire = recorder();
  let left = times;
  const fetch: typeof globalThis.fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (headers.has("Authorization") && left-- > 0) headers.set("Authorization", "Bearer expired-or-revoked");
    return wire.fetch(input, { ...init, headers });
  };
  return { fetch, exchanges: wire.exchanges };
}

function trace(wire: ReturnType<typeof recorder>): string[] {
  return wire.exchanges.map((e) => `${e.method} ${e.url.pathname} ${e.status}`);
}

export function tokenTests(server: Server): void {
  describe("tokens", () => {
    it("asks for a token on the first call, form-encoded, and reuses it", async () => {
      const wire = recorder();
      const client = server.client({ fetch: wire.fetch });
      assert.equal(wire.exchanges.length, 0, "no request before the first call");
      await Promise.all([client.listWarehouses(), client.listReasonCodes()]);
      await client.listWarehouses();
      assert.equal(trace(wire).filter((t) => t.startsWith("POST /api/v1/Token")).length, 1);
      assert.equal(wire.exchanges[0]?.headers.get("Content-Type"), "application/x-www-form-urlencoded");
      const token = await client.token();
      assert.equal(token.tokenType, "bearer");
      assert.equal(token.expiresIn, 14400);
      assert.ok(Math.abs(token.expiry.getTime() - (Date.now() + 14_400_000)) < 60_000);
      assert.equal(wire.exchanges.at(-1)?.headers.get("Authorization"), `Bearer ${token.accessToken}`);
    });

    it("renews a refused token once and goes on", async () => {
      const wire = stale(1);
      const client = server.client({ fetch: wire.fetch });
      const page = await client.listWarehouses();
      assert.equal(page.value[0]?.name, "Main");
      assert.deepEqual(trace(wire), [
        "POST /api/v1/Token 200",
        "GET /api/v1/Warehouse 401",
        "POST /api/v1/Token 200",
        "GET /api/v1/Warehouse 200",
      ]);
    });

    it("gives up with an UnauthorizedError when the renewed token is refused too", async () => {
      const wire = stale(2);
      const client = server.client({ fetch: wire.fetch });
      await assert.rejects(client.listWarehouses(), UnauthorizedError);
      assert.deepEqual(trace(wire), [
        "POST /api/v1/Token 200",
        "GET /api/v1/Warehouse 401",
        "POST /api/v1/Token 200",
        "GET /api/v1/Warehouse 401",
      ]);
    });
  });
}
