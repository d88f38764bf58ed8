import type { Client } from "./client.js";
import type { Operation } from "./operations.js";
import { MAX_ORDER_PAGE_SIZE, walk } from "./paging.js";
import type { OrderListOptions } from "./purchase.js";
import type { CallOptions } from "./transport.js";
import type {
  AllocationResult,
  CommitRequest,
  PackRequest,
  ShipRequest,
  ShippingOrder,
  ShippingOrderCreate,
  ShippingOrderPage,
  ShippingOrderUpdate,
  UncommitRequest,
} from "./types.js";

/** ShippingOrderListOptions select a list of shipping orders; see OrderListOptions. */
export type ShippingOrderListOptions = OrderListOptions<Operation<"/api/v1/ShippingOrder/All", "get">>;

/**
 * Shipping orders' calls (/ShippingOrder) and the actions on their lines
 * (contract §11). Each action answers an AllocationResult: the order's status
 * afterwards and, per line changed, its ledger entry, the units, what is
 * short, the line's committed, packed and shipped units, and the lots taken.
 * Each is one transaction, applied once even when the call is retried.
 */
export const shippingCalls = {
  /**
   * createShippingOrder places a shipping order and returns it as stored:
   * numbered SO-000001 and so on when no soNo is given. Nothing is committed
   * yet: commit it to reserve lots. Applied once even when retried.
   */
  createShippingOrder(order: ShippingOrderCreate, call?: CallOptions): Promise<ShippingOrder> {
    return this.request("post", "/api/v1/ShippingOrder", { body: order }, call);
  },

  /**
   * updateShippingOrder changes the open order soNo names. A line's units may
   * not go below what of it is committed, packed or shipped (a ConflictError).
   */
  updateShippingOrder(change: ShippingOrderUpdate, call?: CallOptions): Promise<ShippingOrder> {
    return this.request("put", "/api/v1/ShippingOrder", { body: change }, call);
  },

  /** getShippingOrder reads order soNo, in any letter case, with the lines the client sees. */
  getShippingOrder(soNo: string, call?: CallOptions): Promise<ShippingOrder> {
    return this.request("get", "/api/v1/ShippingOrder/{soNo}", { params: { soNo } }, call);
  },

  /** listShippingOrders returns the page of shipping orders options ask for (the open ones unless all); entries have no lines. */
  listShippingOrders(options: ShippingOrderListOptions = {}, call?: CallOptions): Promise<ShippingOrderPage> {
    const { all, ...query } = options;
    return this.request("get", all === true ? "/api/v1/ShippingOrder/All" : "/api/v1/ShippingOrder", { query }, call);
  },

  /** shippingOrders yields every shipping order options select, page by page. */
  shippingOrders(options: ShippingOrderListOptions = {}, call?: CallOptions): AsyncGenerator<ShippingOrder, void, undefined> {
    return walk(options, (o) => this.listShippingOrders(o, call), MAX_ORDER_PAGE_SIZE);
  },

  /**
   * commitShippingOrder reserves lots for lines of order soNo (every line's
   * uncommitted units when the request names none), oldest received first. All
   * or nothing: a line that cannot be covered is a ConflictError naming it,
   * unless allowPartial, when what can be is committed and each line's short
   * says what is not.
   */
  commitShippingOrder(soNo: string, request: CommitRequest = {}, call?: CallOptions): Promise<AllocationResult> {
    return this.request("post", "/api/v1/ShippingOrder/{soNo}/Commit", { params: { soNo }, body: request }, call);
  },

  /** uncommitShippingOrder releases committed (not packed) units: every one of each line named, or of every line. */
  uncommitShippingOrder(soNo: string, request: UncommitRequest = {}, call?: CallOptions): Promise<AllocationResult> {
    return this.request("post", "/api/v1/ShippingOrder/{soNo}/Uncommit", { params: { soNo }, body: request }, call);
  },

  /** packShippingOrder turns committed units of the lines named into packed ones. */
  packShippingOrder(soNo: string, request: PackRequest, call?: CallOptions): Promise<AllocationResult> {
    return this.request("post", "/api/v1/ShippingOrder/{soNo}/Pack", { params: { soNo }, body: request }, call);
  },

  /**
   * shipShippingOrder ships lines' packed units, then committed ones, out of
   * their lots (every such unit of each line named, or of every line). The
   * order is Closed once every line has shipped in full.
   */
  shipShippingOrder(soNo: string, request: ShipRequest = {}, call?: CallOptions): Promise<AllocationResult> {
    return this.request("post", "/api/v1/ShippingOrder/{soNo}/Ship", { params: { soNo }, body: request }, call);
  },

  /** cancelShippingOrder cancels an order of which nothing has shipped (else a ConflictError), releasing every allocation. */
  cancelShippingOrder(soNo: string, call?: CallOptions): Promise<AllocationResult> {
    return this.request("post", "/api/v1/ShippingOrder/{soNo}/Cancel", { params: { soNo } }, call);
  },

  /** closeShippingOrder ends an order, releasing what is still committed or packed; what shipped stays shipped. */
  closeShippingOrder(soNo: string, call?: CallOptions): Promise<AllocationResult> {
    return this.request("post", "/api/v1/ShippingOrder/{soNo}/Close", { params: { soNo } }, call);
  },

  /**
   * commitAndShip commits everything order soNo has uncommitted (all or
   * nothing), packs nothing, and ships every committed and packed unit,
   * returning the ship's answer. Calling it again after a failure between the
   * two steps ships what the first committed. With an idempotencyKey the two
   * requests send key + "/commit" and key + "/ship".
   */
  async commitAndShip(soNo: string, call?: CallOptions): Promise<AllocationResult> {
    await this.commitShippingOrder(soNo, {}, stepKey(call, "commit"));
    return this.shipWholeOrder(soNo, undefined, undefined, stepKey(call, "ship"));
  },

  /**
   * shipWholeOrder ships every unit of order soNo that is committed or packed,
   * on every line, under reference (default: the order's number) and remark.
   */
  shipWholeOrder(soNo: string, reference?: string, remark?: string, call?: CallOptions): Promise<AllocationResult> {
    const request: ShipRequest = {};
    if (reference !== undefined) request.reference = reference;
    if (remark !== undefined) request.remark = remark;
    return this.shipShippingOrder(soNo, request, call);
  },
} satisfies ThisType<Client>;

/** stepKey is call for one step of a call of several requests: a key of its own for each. */
function stepKey(call: CallOptions | undefined, step: string): CallOptions | undefined {
  if (call?.idempotencyKey === undefined) return call;
  return { ...call, idempotencyKey: `${call.idempotencyKey}/${step}` };
}
