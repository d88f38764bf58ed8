package httpapi

import (
	"net/http"
	"slices"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/docs"
)

// handlerFunc is an endpoint's handler; an error it returns is written by
// writeError.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handler adapts a plain http.Handler to the route table.
func handler(h http.Handler) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		h.ServeHTTP(w, r)
		return nil
	}
}

// route is one row of the route table. What an operation requires (its
// permission, whether it writes) is the service's to decide, not the
// table's: every handler calls the service, which checks it first.
type route struct {
	pattern string
	// public routes need no token.
	public bool
	// byAddress: a public route whose requests spend the remote address's
	// rate-limit budget.
	byAddress bool
	handle    handlerFunc
	// export: the route answers Accept: text/csv with a CSV export
	// (export.go), bounded by the export timeout.
	export bool
}

// routes is every route of the server, in one table (continued in
// orderRoutes and shippingActionRoutes).
func (s *Server) routes() []route {
	return append([]route{
		{pattern: "GET /{$}", public: true, handle: s.handleRoot},
		{pattern: "GET /healthz", public: true, handle: s.handleHealth},
		{pattern: "GET /readyz", public: true, handle: s.handleReady},

		{pattern: "GET /api/v1/openapi.json", public: true, handle: s.handleOpenAPI},
		{pattern: "GET /docs", public: true, handle: handler(s.docs)},
		{pattern: "GET " + docs.BundlePath, public: true, handle: handler(s.docs)},

		{pattern: "POST /api/v1/Token", public: true, byAddress: true, handle: s.handleToken},

		{pattern: "GET /api/v1/Item", handle: s.handleItemQuery},
		{pattern: "GET /api/v1/Item/All", handle: s.handleItemListAll},
		{pattern: "GET /api/v1/Item/{id}", handle: s.handleItemGet},
		{pattern: "POST /api/v1/Item", handle: s.handleItemCreate},
		{pattern: "PUT /api/v1/Item", handle: s.handleItemUpdate},
		{pattern: "DELETE /api/v1/Item/{shortID}", handle: s.handleItemDelete},

		{pattern: "GET /api/v1/Alias", handle: s.handleAliasList},
		{pattern: "POST /api/v1/Alias", handle: s.handleAliasCreate},
		{pattern: "DELETE /api/v1/Alias/{alias}", handle: s.handleAliasDelete},

		{pattern: "GET /api/v1/Inventory", export: true, handle: s.handleLotList(false)},
		{pattern: "GET /api/v1/Inventory/{wid}", export: true, handle: s.handleLotList(true)},
		{pattern: "GET /api/v1/Inventory/StockLevels", export: true, handle: s.handleStockLevels(false)},
		{pattern: "GET /api/v1/Inventory/StockLevels/{wid}", export: true, handle: s.handleStockLevels(true)},
		{pattern: "POST /api/v1/Inventory/Receive", handle: s.handleReceive},
		{pattern: "POST /api/v1/Inventory/Move", handle: s.handleMove},
		{pattern: "POST /api/v1/Inventory/Issue", handle: s.handleIssue},
		{pattern: "POST /api/v1/Inventory/Hold", handle: s.handleHold(true)},
		{pattern: "POST /api/v1/Inventory/Release", handle: s.handleHold(false)},
		{pattern: "POST /api/v1/Inventory/Batch", handle: s.handleBatch},
		{pattern: "GET /api/v1/Inventory/Transactions", export: true, handle: s.handleTransactionList},
		{pattern: "GET /api/v1/Inventory/Transactions/{id}", handle: s.handleTransactionGet},

		{pattern: "GET /api/v1/Customer", handle: s.handlePartyList(stockroom.Customer, false)},
		{pattern: "GET /api/v1/Customer/All", handle: s.handlePartyList(stockroom.Customer, true)},
		{pattern: "GET /api/v1/Customer/{shortID}", handle: s.handlePartyGet(stockroom.Customer)},
		{pattern: "POST /api/v1/Customer", handle: s.handlePartyCreate(stockroom.Customer)},
		{pattern: "PUT /api/v1/Customer", handle: s.handlePartyUpdate(stockroom.Customer)},
		{pattern: "DELETE /api/v1/Customer/{shortID}", handle: s.handlePartyDelete(stockroom.Customer)},

		{pattern: "GET /api/v1/Vendor", handle: s.handlePartyList(stockroom.Vendor, false)},
		{pattern: "GET /api/v1/Vendor/All", handle: s.handlePartyList(stockroom.Vendor, true)},
		{pattern: "GET /api/v1/Vendor/{shortID}", handle: s.handlePartyGet(stockroom.Vendor)},
		{pattern: "POST /api/v1/Vendor", handle: s.handlePartyCreate(stockroom.Vendor)},
		{pattern: "PUT /api/v1/Vendor", handle: s.handlePartyUpdate(stockroom.Vendor)},
		{pattern: "DELETE /api/v1/Vendor/{shortID}", handle: s.handlePartyDelete(stockroom.Vendor)},

		{pattern: "GET /api/v1/Category", handle: s.handleCategoryList(false)},
		{pattern: "GET /api/v1/Category/All", handle: s.handleCategoryList(true)},
		{pattern: "GET /api/v1/Category/{id}", handle: s.handleCategoryGet},
		{pattern: "POST /api/v1/Category", handle: s.handleCategoryCreate},
		{pattern: "PUT /api/v1/Category", handle: s.handleCategoryUpdate},
		{pattern: "DELETE /api/v1/Category/{id}", handle: s.handleCategoryDelete},

		{pattern: "GET /api/v1/Warehouse", handle: s.handleWarehouseList},
		{pattern: "GET /api/v1/ReasonCode", handle: s.handleReasonCodeList},

		{pattern: "GET /api/v1/Events", handle: s.handleEvents},

		{pattern: "GET /api/v1/Report", handle: s.handleReportList},
		{pattern: "GET /api/v1/Report/{id}", export: true, handle: s.handleReportRun},
	}, slices.Concat(s.orderRoutes(), s.shippingActionRoutes(), s.webhookRoutes())...)
}

// orderRoutes are the routes of orders and transits.
func (s *Server) orderRoutes() []route {
	purchase, shipping := s.svc.PurchaseOrders(), s.svc.ShippingOrders()
	return append([]route{
		{pattern: "GET /api/v1/PurchaseOrder", export: true, handle: handleOrderList[stockroom.PurchaseOrder](s, purchase, false, "purchaseorders.csv")},
		{pattern: "GET /api/v1/PurchaseOrder/All", export: true, handle: handleOrderList[stockroom.PurchaseOrder](s, purchase, true, "purchaseorders.csv")},
		{pattern: "GET /api/v1/PurchaseOrder/{poNo}", handle: handleOrderGet(stockroom.OrderKindPurchase, purchase.Get)},
		{pattern: "POST /api/v1/PurchaseOrder", handle: handleOrderCreate(s, purchase.Create)},
		{pattern: "PUT /api/v1/PurchaseOrder", handle: handleOrderUpdate(purchase.Update)},
		{pattern: "POST /api/v1/PurchaseOrder/{poNo}/Close", handle: s.handlePurchaseEnd(false)},
		{pattern: "POST /api/v1/PurchaseOrder/{poNo}/Cancel", handle: s.handlePurchaseEnd(true)},
		{pattern: "POST /api/v1/PurchaseOrder/{poNo}/Ship", handle: s.handleShipNotice},
		{pattern: "GET /api/v1/Transit", export: true, handle: s.handleTransitList(false)},
		{pattern: "GET /api/v1/Transit/All", export: true, handle: s.handleTransitList(true)},
		{pattern: "GET /api/v1/Transit/{id}", handle: s.handleTransitGet},
		{pattern: "POST /api/v1/Transit/{id}/Receive", handle: s.handleTransitReceive},
		{pattern: "POST /api/v1/Transit/{id}/Cancel", handle: s.handleTransitCancel},

		{pattern: "GET /api/v1/ShippingOrder", export: true, handle: handleOrderList[stockroom.ShippingOrder](s, shipping, false, "shippingorders.csv")},
		{pattern: "GET /api/v1/ShippingOrder/All", export: true, handle: handleOrderList[stockroom.ShippingOrder](s, shipping, true, "shippingorders.csv")},
		{pattern: "GET /api/v1/ShippingOrder/{soNo}", handle: handleOrderGet(stockroom.OrderKindShipping, shipping.Get)},
		{pattern: "POST /api/v1/ShippingOrder", handle: handleOrderCreate(s, shipping.Create)},
		{pattern: "PUT /api/v1/ShippingOrder", handle: handleOrderUpdate(shipping.Update)},
	}, s.workOrderRoutes()...)
}

// endpoint wraps a route's handler with what comes before it: the
// authentication and the rate limit (contract §2); the checks every route
// shares of the body's encoding and the parameters' text, whose refusals the
// service reports in their place in the order; and the reading of an
// Idempotency-Key, whose refusals it records as the key's answer.
func (s *Server) endpoint(rt route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := infoFrom(r.Context())
		info.route = rt.pattern
		if err := s.authorize(w, r, rt); err != nil {
			s.writeError(w, r, err)
			return
		}
		if err := checkInput(r, rt); err != nil {
			if rt.public {
				s.writeError(w, r, err)
				return
			}
			info.inputErr = err
		}
		if r.Method == http.MethodPost && !rt.public && info.inputErr == nil && r.Header.Get("Idempotency-Key") != "" {
			s.readKey(r, info)
		}
		if err := rt.handle(w, r); err != nil {
			s.answerError(w, r, err)
		}
	})
}

// authorize authenticates the request and spends its rate-limit budget.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, rt route) error {
	if rt.public {
		if rt.byAddress {
			return s.limit(w, r, budgetAddress, s.remoteAddr(r), false)
		}
		return nil
	}
	p, err := s.authenticate(r)
	if err != nil {
		// Requests without a valid token spend their address's budget, so
		// tokens cannot be tried at speed.
		if stockroom.ErrorCode(err) == stockroom.EUNAUTHORIZED {
			if lerr := s.limit(w, r, budgetAddress, s.remoteAddr(r), false); lerr != nil {
				return lerr
			}
		}
		return err
	}
	info := infoFrom(r.Context())
	info.principal, info.clientID = p, p.ClientID
	return s.limit(w, r, budgetClient, p.ClientID, true)
}
