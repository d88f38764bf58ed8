import type { Client } from "./client.js";
import { StockroomError } from "./errors.js";
import type { Operation, Query } from "./operations.js";
import { walk } from "./paging.js";
import type { CallOptions } from "./transport.js";
import type {
  MoveRequest,
  ShipNoticeRequest,
  TransferResult,
  Transit,
  TransitPage,
  TransitReceiveRequest,
  TransitReceiveResult,
} from "./types.js";

/**
 * TransitListOptions select a list of transits: paging, sorting, and the
 * filters `wid` (from or to), `status` and `owner`.
 */
export type TransitListOptions = Query<Operation<"/api/v1/Transit/All", "get">> & {
  /** includeEnded lists every transit (GET /Transit/All) instead of those still on their way (GET /Transit). */
  includeEnded?: boolean;
};

/** NotATransferError is transfer's answer, without a request, to a move that names no shipToWid or no transitSlip. */
export class NotATransferError extends StockroomError {
  override name = "NotATransferError";
}

/** Transits' calls: stock on its way to a warehouse, a transfer or a vendor's advance ship notice (/Transit). */
export const transitCalls = {
  /**
   * transfer ships units from warehouse wid to shipToWid in transit under
   * transitSlip (a move): they leave the source at once and wait in the
   * destination's aSN until receiveTransit or cancelTransit. The answer's
   * transitID names the transit. Too few units is a ConflictError.
   */
  async transfer(request: MoveRequest, call?: CallOptions): Promise<TransferResult> {
    if (request.shipToWid === undefined || request.transitSlip === undefined || request.transitSlip === "") {
      throw new NotATransferError("stockroom: a transfer needs shipToWid and transitSlip");
    }
    const answer = await this.move(request, call);
    if (!("transitID" in answer)) throw new StockroomError("stockroom: the transfer answered no transit");
    return answer;
  },

  /**
   * shipPurchaseOrder records a vendor's advance ship notice against purchase
   * order poNo: the lines' units leave onOrder for the aSN of their warehouse
   * as a transit, which it returns.
   */
  shipPurchaseOrder(poNo: string, notice: ShipNoticeRequest, call?: CallOptions): Promise<Transit> {
    return this.request("post", "/api/v1/PurchaseOrder/{poNo}/Ship", { params: { poNo }, body: notice }, call);
  },

  /** listTransits returns one page of the transits the client may see, newest shipped first unless sorted otherwise. */
  listTransits(options: TransitListOptions = {}, call?: CallOptions): Promise<TransitPage> {
    const { includeEnded, ...query } = options;
    return this.request("get", includeEnded === true ? "/api/v1/Transit/All" : "/api/v1/Transit", { query }, call);
  },

  /** transits yields every transit of the list options select, page by page. */
  transits(options: TransitListOptions = {}, call?: CallOptions): AsyncGenerator<Transit, void, undefined> {
    return walk(options, (o) => this.listTransits(o, call));
  },

  /** getTransit returns one transit with its lines; one the client may not see is a NotFoundError. */
  getTransit(id: number, call?: CallOptions): Promise<Transit> {
    return this.request("get", "/api/v1/Transit/{id}", { params: { id } }, call);
  },

  /**
   * receiveTransit receives a transit at its destination: the empty request
   * takes everything still due; with lines, each line's units go into stock
   * and its rejected units are written off under reasonCode. More than a line
   * has due is a ConflictError and changes nothing.
   */
  receiveTransit(id: number, request: TransitReceiveRequest = {}, call?: CallOptions): Promise<TransitReceiveResult> {
    return this.request("post", "/api/v1/Transit/{id}/Receive", { params: { id }, body: request }, call);
  },

  /** cancelTransit ends a transit: what is still due returns to its source warehouse (a transfer) or to onOrder (a notice). */
  cancelTransit(id: number, call?: CallOptions): Promise<Transit> {
    return this.request("post", "/api/v1/Transit/{id}/Cancel", { params: { id } }, call);
  },
} satisfies ThisType<Client>;
