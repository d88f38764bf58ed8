// The token source's timing, without a server: a token is renewed before it
// expires, and concurrent callers share one request.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TokenSource } from "../src/token.js";

describe("TokenSource", () => {
  it("shares one request among concurrent callers and renews a token a fifth of its life before it expires", async () => {
    let issued = 0;
    const source = new TokenSource(async () => {
      issued++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { access_token: `token-${issued}`, token_type: "bearer", expires_in: 1 };
    });
    const first = await Promise.all([source.current(), source.current(), source.current()]);
    assert.deepEqual(
      first.map((t) => t.accessToken),
      ["token-1", "token-1", "token-1"],
    );
    assert.equal((await source.current()).accessToken, "token-1");
    // A 1 s token is renewed from 0.8 s on.
    await new Promise((resolve) => setTimeout(resolve, 850));
    assert.equal((await source.current()).accessToken, "token-2");
  });

  it("forgets a refused token only once, and lets a caller stop waiting", async () => {
    let issued = 0;
    const source = new TokenSource(async () => ({ access_token: `token-${++issued}`, token_type: "bearer", expires_in: 3600 }));
    const t1 = await source.current();
    source.invalidate(t1.accessToken);
    const t2 = await source.current();
    source.invalidate(t1.accessToken); // a late 401 for the old token
    assert.equal((await source.current()).accessToken, t2.accessToken);
    assert.equal(issued, 2);

    const slow = new TokenSource(() => new Promise(() => {}));
    const controller = new AbortController();
    const waiting = slow.current(controller.signal);
    controller.abort(new Error("gave up"));
    await assert.rejects(waiting, /gave up/);
  });
});
