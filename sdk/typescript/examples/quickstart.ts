// The examples of this package's README.md, which a test holds to this file
// (every TypeScript block of the README is in it), compiled against the
// package as a consumer sees it and run against a real server by
// test/suites/readme.ts.
import { Client, ConflictError, Decimal, NotFoundError } from "@stockroom/sdk";

export async function quickstart(baseUrl: string, clientId: string, clientSecret: string): Promise<string[]> {
  const log: string[] = [];

  const client = new Client({ baseUrl, clientId, clientSecret });

  const item = await client.createItem({ shortID: "HINGE-75", description: "Butt hinge 75 mm", uOM: "EA" });
  log.push(`created ${item.shortID} as part ${item.partNo}`);

  // An Idempotency-Key of your own makes the receipt safe to send again,
  // even from a later run of the program.
  const receipt = await client.receive(
    { itemID: "HINGE-75", units: 500, wid: 1, reasonCode: 1, spot: "A-01", reference: "PO-4711" },
    { idempotencyKey: "po-4711-line-1" },
  );
  log.push(`lot ${receipt.recNo} holds ${receipt.lot.units}`);

  const issue = await client.issue({ itemID: "HINGE-75", units: "12.345678", wid: 1, reasonCode: 20 });
  const left: Decimal = issue.lines[0]?.remaining ?? Decimal.ZERO;
  log.push(`${left} left in lot ${receipt.recNo}`); // exactly 487.654322

  for await (const lot of client.lots({ itemID: "HINGE-75" })) {
    log.push(`lot ${lot.recNo} in ${lot.spot}: ${lot.units.toString()}`);
  }

  const levels = await client.listStockLevels({ itemID: "HINGE-75" });
  for (const level of levels.value) {
    log.push(`${level.shortID}: ${level.available} of ${level.inStock} available`);
  }

  try {
    await client.issue({ itemID: "HINGE-75", units: 1000, wid: 1, reasonCode: 20 });
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    log.push(`refused (${err.status} ${err.code}): ${err.message} [request ${err.requestId}]`);
  }

  try {
    await client.findItemByShortID("NO-SUCH-ITEM");
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    log.push(`not found: ${err.message}`);
  }

  const total = Decimal.parse("0.1").plus("0.2"); // exactly 0.3
  log.push(`${total.toString()} ${total.equals(0.3)}`);

  const page = await client.request("get", "/api/v1/Inventory/Transactions", { query: { itemID: "HINGE-75", pageSize: 1 } });
  log.push(`${page.totalCount} ledger entries, the last a ${page.value[0]?.type}`);

  return log;
}
