// The README's examples: every TypeScript block of README.md is part of
// examples/quickstart.ts, which tsc compiled against the package as a
// consumer imports it, and which runs here against the real server.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { quickstart } from "../../examples/quickstart.js";
import type { Server } from "../support/server.js";

/** packageDir is sdk/typescript: this file runs from build/test/suites. */
const packageDir = new URL("../../../", import.meta.url);

/** lines are a text's non-blank lines without their indentation. */
function lines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

export function readmeTests(server: Server): void {
  describe("the README's examples", () => {
    it("are all in examples/quickstart.ts", async () => {
      const readme = await readFile(new URL("README.md", packageDir), "utf8");
      const example = lines(await readFile(new URL("examples/quickstart.ts", packageDir), "utf8")).join("\n");
      const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => lines(m[1] ?? "").join("\n"));
      assert.ok(blocks.length >= 5, `${blocks.length} TypeScript blocks`);
      for (const block of blocks) assert.ok(example.includes(block), `not in examples/quickstart.ts:\n${block}`);
    });

    it("run against a server", async () => {
      const log = await quickstart(server.url, server.clientId, server.clientSecret);
      const recNo = /^lot (\d+) holds 500$/.exec(log[1] ?? "")?.[1];
      assert.ok(recNo !== undefined, log[1]);
      assert.deepEqual(log.slice(2, 5), [
        `487.654322 left in lot ${recNo}`,
        `lot ${recNo} in A-01: 487.654322`,
        "HINGE-75: 487.654322 of 487.654322 available",
      ]);
      assert.match(log[5] ?? "", /^refused \(409 conflict\): .+ \[request .+\]$/);
      assert.match(log[6] ?? "", /^not found: /);
      assert.equal(log[7], "0.3 true");
      assert.equal(log[8], "2 ledger entries, the last a issue");
    });
  });
}
