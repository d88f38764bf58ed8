import type { Client } from "./client.js";
import type { Operation, Query } from "./operations.js";
import { walk } from "./paging.js";
import type { CallOptions } from "./transport.js";
import type {
  BatchRequest,
  BatchResult,
  HoldResult,
  IssueRequest,
  IssueResult,
  Lot,
  LotPage,
  MoveRequest,
  MoveResult,
  ReceiveRequest,
  ReceiveResult,
  StockLevel,
  StockLevelPage,
  TransferResult,
} from "./types.js";

/**
 * LotListOptions select a list of lots: paging, sorting, `modifiedSince`, and
 * the filters `itemID`, `spot` (`""` selects the blank spot), `serial`,
 * `hold`, `owner` (a customerID or ShortID, 0 for the house's own stock) and
 * `includeShipped` (emptied lots too).
 */
export type LotListOptions = Query<Operation<"/api/v1/Inventory", "get">> & {
  /** wid lists the lots of one warehouse (GET /Inventory/{wid}); absent, those of every warehouse in scope. */
  wid?: number;
};

/**
 * StockLevelListOptions select a list of stock levels: paging, sorting,
 * `modifiedSince`, and the filters `itemID`, `owner` (absent: summed over
 * owners) and `includeZero` (every active item, also those without stock).
 */
export type StockLevelListOptions = Query<Operation<"/api/v1/Inventory/StockLevels", "get">> & {
  /** wid gives one warehouse's levels (GET /Inventory/StockLevels/{wid}); absent, summed over those in scope. */
  wid?: number;
};

/** Stock's calls: lots, stock levels, receive, issue, move, hold and release (/Inventory). */
export const inventoryCalls = {
  /**
   * listLots returns one page of lots, newest received first unless sorted
   * otherwise; without includeShipped only lots still holding units.
   */
  listLots(options: LotListOptions = {}, call?: CallOptions): Promise<LotPage> {
    const { wid, ...query } = options;
    if (wid !== undefined) return this.request("get", "/api/v1/Inventory/{wid}", { params: { wid }, query }, call);
    return this.request("get", "/api/v1/Inventory", { query }, call);
  },

  /** lots yields every lot of the list options select, page by page. */
  lots(options: LotListOptions = {}, call?: CallOptions): AsyncGenerator<Lot, void, undefined> {
    return walk(options, (o) => this.listLots(o, call));
  },

  /** listStockLevels returns one page of per-item stock levels, in partNo order unless sorted otherwise. */
  listStockLevels(options: StockLevelListOptions = {}, call?: CallOptions): Promise<StockLevelPage> {
    const { wid, ...query } = options;
    if (wid !== undefined) {
      return this.request("get", "/api/v1/Inventory/StockLevels/{wid}", { params: { wid }, query }, call);
    }
    return this.request("get", "/api/v1/Inventory/StockLevels", { query }, call);
  },

  /** stockLevels yields every stock level of the list options select, page by page. */
  stockLevels(options: StockLevelListOptions = {}, call?: CallOptions): AsyncGenerator<StockLevel, void, undefined> {
    return walk(options, (o) => this.listStockLevels(o, call));
  },

  /**
   * receive books stock into a warehouse as a new lot. It is applied once even
   * when it has to be retried (see CallOptions.idempotencyKey). A discontinued
   * item is a ConflictError.
   */
  receive(request: ReceiveRequest, call?: CallOptions): Promise<ReceiveResult> {
    return this.request("post", "/api/v1/Inventory/Receive", { body: request }, call);
  },

  /**
   * issue takes stock out of a warehouse, oldest lots first. Too few units in
   * the matching lots is a ConflictError whose message names the units asked
   * for and available; nothing changes then. Applied once even when retried.
   */
  issue(request: IssueRequest, call?: CallOptions): Promise<IssueResult> {
    return this.request("post", "/api/v1/Inventory/Issue", { body: request }, call);
  },

  /**
   * move relocates stock to another spot (toSpot) and/or warehouse
   * (shipToWid); with a transitSlip it ships a transit and answers a
   * TransferResult (see transfer). Too few units is a ConflictError, as for
   * issue. Applied once even when retried.
   */
  move(request: MoveRequest, call?: CallOptions): Promise<MoveResult | TransferResult> {
    return this.request("post", "/api/v1/Inventory/Move", { body: request }, call);
  },

  /**
   * hold puts a lot on hold: its units count as onHold and are no longer
   * available, issued or moved (unless a move names the lot by recno).
   */
  hold(recNo: number, call?: CallOptions): Promise<HoldResult> {
    return this.request("post", "/api/v1/Inventory/Hold", { body: { recno: recNo } }, call);
  },

  /** release takes a lot off hold. */
  release(recNo: number, call?: CallOptions): Promise<HoldResult> {
    return this.request("post", "/api/v1/Inventory/Release", { body: { recno: recNo } }, call);
  },

  /**
   * batch carries out up to 1,000 receive, issue, move, hold and release
   * operations in one request, each held to its own endpoint's permission,
   * scope and rules. Atomic (the default) is all or nothing: the first
   * refusal rejects with that operation's error, whose details name it
   * (`operations[3]`), and nothing changes. With `atomic: false` each
   * operation commits on its own and its result says how it went. Applied
   * once even when retried.
   */
  batch(request: BatchRequest, call?: CallOptions): Promise<BatchResult> {
    return this.request("post", "/api/v1/Inventory/Batch", { body: request }, call);
  },
} satisfies ThisType<Client>;
