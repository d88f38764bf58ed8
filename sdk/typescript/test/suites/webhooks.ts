// Webhooks through the SDK: a subscription to a receiver of the test's own
// gets a receipt's event, signed with the secret shown at its creation.
import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { NotFoundError } from "../../src/index.js";
import type { Server } from "../support/server.js";

interface Delivery {
  type: string;
  signature: string;
  body: string;
}

/** verify checks a Stockroom-Signature header (t=UNIX,v1=HEX) over body. */
function verify(secret: string, header: string, body: string): boolean {
  const parts = new Map(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = parts.get("t") ?? "";
  const want = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const got = Buffer.from(parts.get("v1") ?? "", "hex");
  return got.length === want.length && timingSafeEqual(got, want);
}

export function webhookTests(server: Server): void {
  describe("webhooks", () => {
    const client = server.client();

    it("delivers a receipt's event, signed, and logs it", async () => {
      const deliveries: Delivery[] = [];
      const receiver = createServer((req, res) => {
        let body = "";
        req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        req.on("end", () => {
          deliveries.push({
            type: String(req.headers["stockroom-event-type"]),
            signature: String(req.headers["stockroom-signature"]),
            body,
          });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
      try {
        const port = (receiver.address() as AddressInfo).port;
        const hook = await client.createWebhook({
          name: "ts-sdk",
          url: `http://127.0.0.1:${port}/hook`,
          events: "inventory.received",
          payloadMode: 1,
        });
        assert.ok(hook.secret, "the secret is shown at creation");
        assert.equal((await client.getWebhook(hook.rec)).secret, undefined, "and never again");
        await client.createItem({ shortID: "HOOK-TS" });
        await client.receive({ itemID: "HOOK-TS", units: 3, wid: 1, reasonCode: 1 });
        for (let i = 0; i < 100 && !deliveries.some((d) => d.body.includes("HOOK-TS")); i++) {
          await new Promise((ok) => setTimeout(ok, 100));
        }
        const d = deliveries.find((x) => x.body.includes("HOOK-TS"));
        assert.ok(d, "the receipt's event was delivered");
        assert.equal(d.type, "inventory.received");
        assert.ok(verify(hook.secret ?? "", d.signature, d.body), "the signature verifies with the secret");
        assert.ok(!verify("whsec_wrong", d.signature, d.body));
        const log = await client.webhookLog(hook.rec);
        assert.ok(log.value.some((a) => a.success), "the log shows the attempt");
        await client.deleteWebhook(hook.rec);
        await assert.rejects(client.getWebhook(hook.rec), NotFoundError);
      } finally {
        receiver.close();
      }
    });
  });
}
