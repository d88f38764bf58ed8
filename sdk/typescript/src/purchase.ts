import type { Client } from "./client.js";
import { StockroomError } from "./errors.js";
import type { Operation, Query } from "./operations.js";
import { MAX_ORDER_PAGE_SIZE, walk } from "./paging.js";
import type { CallOptions } from "./transport.js";
import type {
  PurchaseLine,
  PurchaseOrder,
  PurchaseOrderCreate,
  PurchaseOrderPage,
  PurchaseOrderUpdate,
  ReceiveRequest,
  ReceiveResult,
} from "./types.js";

/**
 * OrderListOptions select a list of orders of the kind whose GET /X/All
 * operation is O (at most 50 a page): paging, sorting, `startDate` and
 * `endDate` (the order date; for work orders, endDate bounds the due date),
 * and the filters `status`, `itemID`, `wid` and `owner`.
 */
export type OrderListOptions<O> = Query<O> & {
  /** all lists every order (GET /X/All) instead of the open ones (GET /X). */
  all?: boolean;
};

/** PurchaseOrderListOptions select a list of purchase orders. */
export type PurchaseOrderListOptions = OrderListOptions<Operation<"/api/v1/PurchaseOrder/All", "get">>;

/** NothingDueError is receivePurchaseLine's answer for a line with nothing left due, or of an ended order. */
export class NothingDueError extends StockroomError {
  override name = "NothingDueError";
}

/** NoSuchLineError is receivePurchaseLine's answer for a line the order lacks, or the client does not see. */
export class NoSuchLineError extends StockroomError {
  override name = "NoSuchLineError";
}

/** PURCHASE_RECEIPT is the default reason code 1, "Purchase order receipt". */
const PURCHASE_RECEIPT = 1;

/** Purchase orders' calls (/PurchaseOrder) and receipts against their lines. */
export const purchaseCalls = {
  /**
   * listPurchaseOrders returns one page of the purchase orders the client sees,
   * in order date order unless sorted otherwise; entries carry no lines.
   */
  listPurchaseOrders(options: PurchaseOrderListOptions = {}, call?: CallOptions): Promise<PurchaseOrderPage> {
    const { all, ...query } = options;
    return this.request("get", all === true ? "/api/v1/PurchaseOrder/All" : "/api/v1/PurchaseOrder", { query }, call);
  },

  /** purchaseOrders yields every purchase order of the list options select, page by page. */
  purchaseOrders(options: PurchaseOrderListOptions = {}, call?: CallOptions): AsyncGenerator<PurchaseOrder, void, undefined> {
    return walk(options, (o) => this.listPurchaseOrders(o, call), MAX_ORDER_PAGE_SIZE);
  },

  /** getPurchaseOrder returns the order numbered poNo (any letter case) with the lines the client sees. */
  getPurchaseOrder(poNo: string, call?: CallOptions): Promise<PurchaseOrder> {
    return this.request("get", "/api/v1/PurchaseOrder/{poNo}", { params: { poNo } }, call);
  },

  /**
   * createPurchaseOrder places an order and returns it as stored, with its
   * number (assigned, PO-000001 and so on, when none is given). A number taken
   * already is a ConflictError. Applied once even when retried.
   */
  createPurchaseOrder(order: PurchaseOrderCreate, call?: CallOptions): Promise<PurchaseOrder> {
    return this.request("post", "/api/v1/PurchaseOrder", { body: order }, call);
  },

  /**
   * updatePurchaseOrder changes the open order poNo names: the fields given,
   * the lines named by lineNo, and new lines. Cutting a line's units below what
   * has arrived is a ConflictError.
   */
  updatePurchaseOrder(change: PurchaseOrderUpdate, call?: CallOptions): Promise<PurchaseOrder> {
    return this.request("put", "/api/v1/PurchaseOrder", { body: change }, call);
  },

  /** closePurchaseOrder ends an open order: what is still due stops counting in onOrder. */
  closePurchaseOrder(poNo: string, call?: CallOptions): Promise<PurchaseOrder> {
    return this.request("post", "/api/v1/PurchaseOrder/{poNo}/Close", { params: { poNo } }, call);
  },

  /** cancelPurchaseOrder cancels an open order of which nothing has arrived or is on its way (else a ConflictError). */
  cancelPurchaseOrder(poNo: string, call?: CallOptions): Promise<PurchaseOrder> {
    return this.request("post", "/api/v1/PurchaseOrder/{poNo}/Cancel", { params: { poNo } }, call);
  },

  /**
   * receiveAgainstLine receives request against line `line` of order poNo:
   * the line's item and warehouse must be the request's; without an owner the
   * stock is the line's owner's, without a price it costs the line's unit
   * price. The line, the order's status and onOrder change with the receipt.
   */
  receiveAgainstLine(poNo: string, line: number, request: ReceiveRequest, call?: CallOptions): Promise<ReceiveResult> {
    return this.receive({ ...request, poNo, line }, call);
  },

  /**
   * receivePurchaseLine receives what line `line` of order poNo has due, as
   * the order reads just before, into the line's warehouse (and spot, when
   * given) under reason code 1, "Purchase order receipt". A line with nothing
   * due is a NothingDueError, one the order lacks a NoSuchLineError. Units that
   * another receipt brings meanwhile are received again: to make a retry safe,
   * give an idempotencyKey.
   */
  async receivePurchaseLine(poNo: string, line: number, spot?: string, call?: CallOptions): Promise<ReceiveResult> {
    const order = await this.getPurchaseOrder(poNo, call);
    const l = order.lines?.find((candidate: PurchaseLine) => candidate.lineNo === line);
    if (l === undefined) throw new NoSuchLineError(`stockroom: purchase order ${order.poNo} has no line ${line}`);
    if (l.unitsDue.sign() <= 0) throw new NothingDueError(`stockroom: nothing is due on line ${line} of ${order.poNo}`);
    const request: ReceiveRequest = { itemID: l.shortID, units: l.unitsDue, wid: l.warehouse, reasonCode: PURCHASE_RECEIPT };
    if (spot !== undefined) request.spot = spot;
    return this.receiveAgainstLine(order.poNo, line, request, call);
  },
} satisfies ThisType<Client>;
