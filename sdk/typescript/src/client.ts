import { eventCalls } from "./events.js";
import { inventoryCalls } from "./inventory.js";
import { itemCalls } from "./items.js";
import { ledgerCalls } from "./ledger.js";
import { ownerCalls } from "./owners.js";
import { purchaseCalls } from "./purchase.js";
import { referenceCalls } from "./reference.js";
import { shippingCalls } from "./shipping.js";
import { syncCalls } from "./sync.js";
import { transitCalls } from "./transit.js";
import { webhookCalls } from "./webhooks.js";
import { Transport } from "./transport.js";
import { workOrderCalls } from "./workorder.js";

// The Client's methods live one file per noun, as the Go SDK's do. Each file
// exports an object of methods written against `this: Client` (`satisfies
// ThisType<Client>`). Calls names them all, the interface merged into Client
// below declares them on it, and they are copied onto Client's prototype; the
// compiler refuses `calls` if it lacks one, so no method is declared without
// being there.

/** Calls is the type of every endpoint method of the Client. */
type Calls = typeof itemCalls &
  typeof inventoryCalls &
  typeof ledgerCalls &
  typeof referenceCalls &
  typeof ownerCalls &
  typeof purchaseCalls &
  typeof shippingCalls &
  typeof transitCalls &
  typeof workOrderCalls &
  typeof syncCalls &
  typeof eventCalls &
  typeof webhookCalls;

const calls: Calls = {
  ...itemCalls,
  ...inventoryCalls,
  ...ledgerCalls,
  ...referenceCalls,
  ...ownerCalls,
  ...purchaseCalls,
  ...shippingCalls,
  ...transitCalls,
  ...workOrderCalls,
  ...syncCalls,
  ...eventCalls,
  ...webhookCalls,
};

/**
 * Client calls one Stockroom server with one set of client credentials: a
 * method per endpoint, tokens fetched and renewed by themselves, 429s waited
 * out, an Idempotency-Key on every POST, async iterators over every list, and
 * failures as ApiError subclasses. Create one per credential and share it, so
 * that its token is reused. No request is made until the first call.
 *
 *     const client = new Client({ baseUrl, clientId, clientSecret });
 *     for await (const lot of client.lots({ itemID: "BOLT-M8" })) console.log(lot.recNo, lot.units.toString());
 */
export class Client extends Transport {}

// Declaration merging: Client's instances have every method of calls.
export interface Client extends Calls {}

Object.assign(Client.prototype, calls);
