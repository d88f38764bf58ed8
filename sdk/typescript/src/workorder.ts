import type { Client } from "./client.js";
import type { Decimal, DecimalInput } from "./decimal.js";
import { StockroomError } from "./errors.js";
import type { Operation } from "./operations.js";
import { MAX_ORDER_PAGE_SIZE, walk } from "./paging.js";
import type { OrderListOptions } from "./purchase.js";
import type { CallOptions } from "./transport.js";
import type { CompleteResult, WorkAllocationResult, WorkCommitRequest, WorkOrder, WorkOrderCreate, WorkOrderPage } from "./types.js";

/** WorkOrderListOptions select a list of work orders; endDate bounds the due date, itemID matches the product or a component. */
export type WorkOrderListOptions = OrderListOptions<Operation<"/api/v1/WorkOrder/All", "get">>;

/** Work orders' calls: building a product from components (/WorkOrder). */
export const workOrderCalls = {
  /**
   * createWorkOrder places a work order to build units of a product (itemID)
   * at warehouse wid from components, each of units per unit of product, and
   * returns it as stored (numbered WO-000001 and so on when no woNo is given).
   * Applied once even when retried.
   */
  createWorkOrder(order: WorkOrderCreate, call?: CallOptions): Promise<WorkOrder> {
    return this.request("post", "/api/v1/WorkOrder", { body: order }, call);
  },

  /** getWorkOrder reads work order woNo, in any letter case, with its components and what of each is committed and consumed. */
  getWorkOrder(woNo: string, call?: CallOptions): Promise<WorkOrder> {
    return this.request("get", "/api/v1/WorkOrder/{woNo}", { params: { woNo } }, call);
  },

  /** listWorkOrders returns the page of work orders options ask for (the open ones unless all); entries have no components. */
  listWorkOrders(options: WorkOrderListOptions = {}, call?: CallOptions): Promise<WorkOrderPage> {
    const { all, ...query } = options;
    return this.request("get", all === true ? "/api/v1/WorkOrder/All" : "/api/v1/WorkOrder", { query }, call);
  },

  /** workOrders yields every work order options select, page by page. */
  workOrders(options: WorkOrderListOptions = {}, call?: CallOptions): AsyncGenerator<WorkOrder, void, undefined> {
    return walk(options, (o) => this.listWorkOrders(o, call), MAX_ORDER_PAGE_SIZE);
  },

  /**
   * commitWorkOrder reserves lots for components of order woNo (every
   * component's uncommitted units when the request names none), as a shipping
   * order's commit does: all or nothing unless allowPartial.
   */
  commitWorkOrder(woNo: string, request: WorkCommitRequest = {}, call?: CallOptions): Promise<WorkAllocationResult> {
    return this.request("post", "/api/v1/WorkOrder/{woNo}/Commit", { params: { woNo }, body: request }, call);
  },

  /**
   * completeWorkOrder builds units products of order woNo in one transaction:
   * it consumes their components (allocated lots first, then the oldest free
   * ones) and receives the products as one lot priced at what the components
   * cost. A component short is a ConflictError naming it, and nothing
   * changes. Applied once even when retried.
   */
  completeWorkOrder(woNo: string, units: DecimalInput, call?: CallOptions): Promise<CompleteResult> {
    return this.request("post", "/api/v1/WorkOrder/{woNo}/Complete", { params: { woNo }, body: { units } }, call);
  },

  /**
   * completeAll completes whatever order woNo has left to build. It reads the
   * order first: a completion by another client in between makes the server
   * refuse (a ConflictError) rather than build more than ordered.
   */
  async completeAll(woNo: string, call?: CallOptions): Promise<CompleteResult> {
    const order = await this.getWorkOrder(woNo, call);
    const left: Decimal = order.units.minus(order.unitsCompleted);
    if (left.sign() <= 0 || order.status === "Closed" || order.status === "Canceled") {
      throw new StockroomError(`stockroom: work order ${order.woNo} is ${order.status} with nothing left to complete`);
    }
    return this.completeWorkOrder(order.woNo, left, call);
  },

  /** cancelWorkOrder cancels order woNo, of which nothing is completed yet, releasing its components' allocations. */
  cancelWorkOrder(woNo: string, call?: CallOptions): Promise<WorkAllocationResult> {
    return this.request("post", "/api/v1/WorkOrder/{woNo}/Cancel", { params: { woNo } }, call);
  },

  /** closeWorkOrder ends order woNo, whatever is completed, releasing its components' allocations. */
  closeWorkOrder(woNo: string, call?: CallOptions): Promise<WorkAllocationResult> {
    return this.request("post", "/api/v1/WorkOrder/{woNo}/Close", { params: { woNo } }, call);
  },
} satisfies ThisType<Client>;
