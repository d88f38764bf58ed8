package httpapi

import (
	"net/http"

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

// route is one row of the route table.
type route struct {
	pattern string
	// public routes need no token.
	public bool
	// byAddress: a public route whose requests spend the remote address's
	// rate-limit budget.
	byAddress bool
	// perm is the SecurityID the route requires; 0 for none beyond a token.
	perm   stockroom.Permission
	handle handlerFunc
}

// routes is every route of the server, in one table.
func (s *Server) routes() []route {
	return []route{
		{pattern: "GET /healthz", public: true, handle: s.handleHealth},
		{pattern: "GET /readyz", public: true, handle: s.handleReady},

		{pattern: "GET /api/v1/openapi.json", public: true, handle: s.handleOpenAPI},
		{pattern: "GET /docs", public: true, handle: handler(s.docs)},
		{pattern: "GET " + docs.BundlePath, public: true, handle: handler(s.docs)},

		{pattern: "POST /api/v1/Token", public: true, byAddress: true, handle: s.handleToken},

		{pattern: "GET /api/v1/Item", perm: stockroom.PermItemRead, handle: s.handleItemQuery},
		{pattern: "GET /api/v1/Item/All", perm: stockroom.PermItemRead, handle: s.handleItemListAll},
		{pattern: "GET /api/v1/Item/{id}", perm: stockroom.PermItemRead, handle: s.handleItemGet},
		{pattern: "POST /api/v1/Item", perm: stockroom.PermItemWrite, handle: s.handleItemCreate},
		{pattern: "PUT /api/v1/Item", perm: stockroom.PermItemWrite, handle: s.handleItemUpdate},
		{pattern: "DELETE /api/v1/Item/{shortID}", perm: stockroom.PermItemWrite, handle: s.handleItemDelete},

		{pattern: "GET /api/v1/Alias", perm: stockroom.PermItemRead, handle: s.handleAliasList},
		{pattern: "POST /api/v1/Alias", perm: stockroom.PermItemWrite, handle: s.handleAliasCreate},
		{pattern: "DELETE /api/v1/Alias/{alias}", perm: stockroom.PermItemWrite, handle: s.handleAliasDelete},

		{pattern: "GET /api/v1/Inventory", perm: stockroom.PermItemRead, handle: s.handleLotList(false)},
		{pattern: "GET /api/v1/Inventory/{wid}", perm: stockroom.PermItemRead, handle: s.handleLotList(true)},
		{pattern: "GET /api/v1/Inventory/StockLevels", perm: stockroom.PermItemRead, handle: s.handleStockLevels(false)},
		{pattern: "GET /api/v1/Inventory/StockLevels/{wid}", perm: stockroom.PermItemRead, handle: s.handleStockLevels(true)},
		{pattern: "POST /api/v1/Inventory/Receive", perm: stockroom.PermReceive, handle: s.handleReceive},
		{pattern: "POST /api/v1/Inventory/Move", perm: stockroom.PermMove, handle: s.handleMove},
		{pattern: "POST /api/v1/Inventory/Issue", perm: stockroom.PermIssue, handle: s.handleIssue},
		{pattern: "POST /api/v1/Inventory/Hold", perm: stockroom.PermMove, handle: s.handleHold(true)},
		{pattern: "POST /api/v1/Inventory/Release", perm: stockroom.PermMove, handle: s.handleHold(false)},
		{pattern: "GET /api/v1/Inventory/Transactions", perm: stockroom.PermItemRead, handle: s.handleTransactionList},
		{pattern: "GET /api/v1/Inventory/Transactions/{id}", perm: stockroom.PermItemRead, handle: s.handleTransactionGet},

		{pattern: "GET /api/v1/Warehouse", handle: s.handleWarehouseList},
		{pattern: "GET /api/v1/ReasonCode", handle: s.handleReasonCodeList},
	}
}

// endpoint wraps a route's handler with the checks of contract §2 that come
// before the body is read: authentication, the rate limit, then read-only
// accounts on writes, then the permission; then the checks of the body's
// encoding and of the parameters' text that every route shares.
func (s *Server) endpoint(rt route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := infoFrom(r.Context())
		info.route = rt.pattern
		if err := s.authorize(w, r, rt); err != nil {
			s.writeError(w, r, err)
			return
		}
		if err := checkInput(r, rt); err != nil {
			s.writeError(w, r, err)
			return
		}
		var err error
		if key := r.Header.Get("Idempotency-Key"); key != "" && r.Method == http.MethodPost && !rt.public {
			err = s.idempotent(w, r, key, rt.handle)
		} else {
			err = rt.handle(w, r)
		}
		if err != nil {
			s.writeError(w, r, err)
		}
	})
}

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
	if err := s.limit(w, r, budgetClient, p.ClientID, true); err != nil {
		return err
	}
	write := r.Method != http.MethodGet && r.Method != http.MethodHead
	return p.Authorize(rt.perm, write)
}
