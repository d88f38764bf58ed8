import type { components } from "./generated/openapi.js";
import type { Answer, Input, Operation } from "./operations.js";

// The SDK's names for the document's schemas: records as answers carry them
// (Decimal wherever the document has a JSON number), and requests as the
// methods take them (Input: a quantity may also be given as a number or a
// decimal string). Every one is generated from api/openapi.yaml.

type Schemas = components["schemas"];

/** StatusResult is the answer of an update or discontinuation: `{shortID | categoryID, status}`. */
export type StatusResult = Schemas["ItemUpdated"] | Schemas["ItemDiscontinued"];

// The catalogue.
export type Item = Schemas["Item"];
export type ItemPage = Schemas["ItemPage"];
export type ItemCreate = Input<Schemas["ItemCreate"]>;
export type ItemUpdate = Input<Schemas["ItemUpdate"]>;
export type ItemUpdated = Schemas["ItemUpdated"];
export type ItemDiscontinued = Schemas["ItemDiscontinued"];
export type Alias = Schemas["Alias"];
export type AliasPage = Schemas["AliasPage"];
export type AliasDeleted = Schemas["AliasDeleted"];
export type Customer = Schemas["Customer"];
export type CustomerPage = Schemas["CustomerPage"];
export type Vendor = Schemas["Vendor"];
export type VendorPage = Schemas["VendorPage"];
export type PartyCreate = Input<Schemas["PartyCreate"]>;
export type PartyUpdate = Input<Schemas["PartyUpdate"]>;
export type Category = Schemas["Category"];
export type CategoryPage = Schemas["CategoryPage"];
export type CategoryCreate = Input<Schemas["CategoryCreate"]>;
export type CategoryUpdate = Input<Schemas["CategoryUpdate"]>;
export type CategoryUpdated = Schemas["CategoryUpdated"];
export type CategoryDiscontinued = Schemas["CategoryDiscontinued"];
export type Warehouse = Schemas["Warehouse"];
export type WarehousePage = Schemas["WarehousePage"];
export type ReasonCode = Schemas["ReasonCode"];
export type ReasonCodePage = Schemas["ReasonCodePage"];

// Stock.
export type Lot = Schemas["Lot"];
export type LotPage = Answer<Operation<"/api/v1/Inventory", "get">>;
export type StockLevel = Schemas["StockLevel"];
export type StockLevelPage = Answer<Operation<"/api/v1/Inventory/StockLevels", "get">>;
export type ReceiveRequest = Input<Schemas["ReceiveRequest"]>;
export type ReceiveResult = Schemas["ReceiveResult"];
export type IssueRequest = Input<Schemas["IssueRequest"]>;
export type IssueResult = Schemas["IssueResult"];
export type MoveRequest = Input<Schemas["MoveRequest"]>;
/** MoveResult is a move's answer; a move with shipToWid and transitSlip (a transfer) answers a TransferResult. */
export type MoveResult = Schemas["MoveResult"];
export type TransferResult = Schemas["TransferResult"];
export type HoldResult = Answer<Operation<"/api/v1/Inventory/Hold", "post">>;
/** BatchOperation is one operation of a batch: its endpoint's body with `op` naming it. */
export type BatchOperation = Input<Schemas["BatchOperation"]>;
export type BatchRequest = Input<Schemas["BatchRequest"]>;
/** BatchResult holds, per operation, the status and body its endpoint would have answered. */
export type BatchResult = Schemas["BatchResult"];
export type Transaction = Schemas["Transaction"];
export type TransactionPage = Schemas["TransactionPage"];

// Orders and transits.
export type PurchaseOrder = Schemas["PurchaseOrder"];
export type PurchaseLine = Schemas["PurchaseLine"];
export type PurchaseOrderPage = Schemas["PurchaseOrderPage"];
export type PurchaseOrderCreate = Input<Schemas["PurchaseOrderCreate"]>;
export type PurchaseOrderUpdate = Input<Schemas["PurchaseOrderUpdate"]>;
export type ShippingOrder = Schemas["ShippingOrder"];
export type ShippingLine = Schemas["ShippingLine"];
export type ShippingOrderPage = Schemas["ShippingOrderPage"];
export type ShippingOrderCreate = Input<Schemas["ShippingOrderCreate"]>;
export type ShippingOrderUpdate = Input<Schemas["ShippingOrderUpdate"]>;
export type CommitRequest = Input<Schemas["CommitRequest"]>;
export type UncommitRequest = Input<Schemas["UncommitRequest"]>;
export type PackRequest = Input<Schemas["PackRequest"]>;
export type ShipRequest = Input<Schemas["ShipRequest"]>;
export type AllocationResult = Schemas["AllocationResult"];
export type WorkOrder = Schemas["WorkOrder"];
export type WorkOrderPage = Schemas["WorkOrderPage"];
export type WorkOrderCreate = Input<Schemas["WorkOrderCreate"]>;
export type WorkCommitRequest = Input<Schemas["WorkCommitRequest"]>;
export type WorkAllocationResult = Schemas["WorkAllocationResult"];
export type CompleteResult = Schemas["CompleteResult"];
export type Transit = Schemas["Transit"];
export type TransitPage = Schemas["TransitPage"];
export type ShipNoticeRequest = Input<Schemas["ShipNoticeRequest"]>;
export type TransitReceiveRequest = Input<Schemas["TransitReceiveRequest"]>;
export type TransitReceiveResult = Schemas["TransitReceiveResult"];

// The change feed.
export type Event = Schemas["Event"];
export type EventPage = Schemas["EventPage"];

// Webhooks.
export type Webhook = Schemas["Webhook"];
export type WebhookPage = Schemas["WebhookPage"];
export type WebhookCreate = Input<Schemas["WebhookCreate"]>;
export type WebhookUpdate = Input<Schemas["WebhookUpdate"]>;
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookDeliveryPage = Schemas["WebhookDeliveryPage"];
