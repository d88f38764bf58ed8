import type { Client } from "./client.js";
import type { Operation, Query } from "./operations.js";
import { walk } from "./paging.js";
import type { CallOptions } from "./transport.js";
import type { ReasonCode, ReasonCodePage, Warehouse, WarehousePage } from "./types.js";

/** WarehouseListOptions select a page of warehouses. */
export type WarehouseListOptions = Query<Operation<"/api/v1/Warehouse", "get">>;
/** ReasonCodeListOptions select a page of reason codes. */
export type ReasonCodeListOptions = Query<Operation<"/api/v1/ReasonCode", "get">>;

/** Reference data's calls: warehouses and reason codes. */
export const referenceCalls = {
  /** listWarehouses returns one page of the warehouses in the client's scope: the ids stock calls take as wid. */
  listWarehouses(options: WarehouseListOptions = {}, call?: CallOptions): Promise<WarehousePage> {
    return this.request("get", "/api/v1/Warehouse", { query: options }, call);
  },

  /** warehouses yields every warehouse in the client's scope. */
  warehouses(options: WarehouseListOptions = {}, call?: CallOptions): AsyncGenerator<Warehouse, void, undefined> {
    return walk(options, (o) => this.listWarehouses(o, call));
  },

  /**
   * listReasonCodes returns one page of the reason codes that receipts and
   * issues must name; a code's direction says which of the two it fits.
   */
  listReasonCodes(options: ReasonCodeListOptions = {}, call?: CallOptions): Promise<ReasonCodePage> {
    return this.request("get", "/api/v1/ReasonCode", { query: options }, call);
  },

  /** reasonCodes yields every reason code. */
  reasonCodes(options: ReasonCodeListOptions = {}, call?: CallOptions): AsyncGenerator<ReasonCode, void, undefined> {
    return walk(options, (o) => this.listReasonCodes(o, call));
  },
} satisfies ThisType<Client>;
