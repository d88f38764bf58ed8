// Stockroom's TypeScript SDK: a typed client of the Stockroom inventory API,
// generated from and checked against its OpenAPI document.
export { Client } from "./client.js";
export { Decimal, type DecimalInput } from "./decimal.js";
export {
  ApiError,
  type ApiErrorInit,
  BadRequestError,
  ConflictError,
  CursorExpiredError,
  type ErrorCode,
  ForbiddenError,
  IdempotencyMismatchError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  StockroomError,
  UnauthorizedError,
} from "./errors.js";
export type { EventOptions } from "./events.js";
export { newIdempotencyKey } from "./idempotency.js";
export type { LotListOptions, StockLevelListOptions } from "./inventory.js";
export type { AliasListOptions, ItemListOptions } from "./items.js";
export type { TransactionListOptions } from "./ledger.js";
export type { Answer, Input, JsonBody, Method, Operation, PathOf, PathParams, Query, QueryParams, RequestArgs } from "./operations.js";
export type { MasterListOptions } from "./owners.js";
export { type ListOptions, MAX_ORDER_PAGE_SIZE, MAX_PAGE_SIZE, walk } from "./paging.js";
export { NoSuchLineError, NothingDueError, type OrderListOptions, type PurchaseOrderListOptions } from "./purchase.js";
export type { ReasonCodeListOptions, WarehouseListOptions } from "./reference.js";
export type { ShippingOrderListOptions } from "./shipping.js";
export type { WebhookListOptions, WebhookLogOptions } from "./webhooks.js";
export type { Changes, SyncFilter } from "./sync.js";
export type { Token } from "./token.js";
export { NotATransferError, type TransitListOptions } from "./transit.js";
export type { CallOptions, ClientOptions, CSVPath, Reply } from "./transport.js";
export type * from "./types.js";
export type { WorkOrderListOptions } from "./workorder.js";
export type { components, operations, paths } from "./generated/openapi.js";
