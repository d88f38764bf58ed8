package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// handleItemQuery serves GET /Item: a key lookup (?key=&type=), a category
// (?Category=, a plain array), or the paged list of active items.
func (s *Server) handleItemQuery(w http.ResponseWriter, r *http.Request) error {
	q, readErr := queryOf(r)
	p := principalFrom(r.Context())
	key, hasKey := q.get("key")
	typ, hasType := q.get("type")
	if hasKey || hasType {
		req := readRequest(r, service.ItemLookup{Key: key, Type: typ}, stockroom.Validation{}, readErr)
		it, err := s.svc.LookupItem(r.Context(), p, req)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, it)
		return nil
	}
	if c, ok := q.get("category"); ok {
		var v stockroom.Validation
		cat, err := strconv.ParseInt(strings.TrimSpace(c), 10, 64)
		if err != nil {
			v.Add("Category", "must be an integer")
		}
		items, err := s.svc.ItemsInCategory(r.Context(), p, readRequest(r, cat, v, readErr))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, items)
		return nil
	}
	return s.listItems(w, r, q, readErr, false)
}

// handleItemListAll serves GET /Item/All, discontinued items included.
func (s *Server) handleItemListAll(w http.ResponseWriter, r *http.Request) error {
	q, readErr := queryOf(r)
	return s.listItems(w, r, q, readErr, true)
}

func (s *Server) listItems(w http.ResponseWriter, r *http.Request, q query, readErr error, all bool) error {
	page, perr := parsePageRequest(q)
	res, err := s.svc.ListItems(r.Context(), principalFrom(r.Context()), all, readRequest(r, page, validationOf(perr), readErr))
	if err != nil {
		return err
	}
	writePage(w, res)
	return nil
}

// handleItemGet serves GET /Item/{id}, id being the partNo.
func (s *Server) handleItemGet(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		// Most likely a ShortID, which has its own lookup.
		key := r.PathValue("id")
		err = stockroom.Errorf(stockroom.ENOTFOUND, "No item with partNo %q: the path takes a partNo; to find an item by ShortID, use GET /api/v1/Item?key=%s&type=id.", key, url.QueryEscape(key))
	}
	it, err := s.svc.GetItem(r.Context(), principalFrom(r.Context()), readRequest(r, id, stockroom.Validation{}, err))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, it)
	return nil
}

// itemCreated is the answer of a created item: 201 with its Location.
var itemCreated = answer{status: http.StatusCreated, location: locatorOf(func(it stockroom.Item) string {
	return "/api/v1/Item/" + strconv.FormatInt(it.PartNo, 10)
})}

// handleItemCreate serves POST /Item: 201 with the full item and its
// Location.
func (s *Server) handleItemCreate(w http.ResponseWriter, r *http.Request) error {
	req := withKey(r, jsonRequest[stockroom.ItemChange](r), itemCreated)
	it, err := s.svc.CreateItem(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.respond(w, r, req.Key, itemCreated, it)
	return nil
}

// handleItemUpdate serves PUT /Item, a partial update.
func (s *Server) handleItemUpdate(w http.ResponseWriter, r *http.Request) error {
	it, err := s.svc.UpdateItem(r.Context(), principalFrom(r.Context()), jsonRequest[stockroom.ItemChange](r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, stockroom.StatusResult{ShortID: it.ShortID, Status: "updated"})
	return nil
}

// handleItemDelete serves DELETE /Item/{shortID}: the item is discontinued,
// never removed.
func (s *Server) handleItemDelete(w http.ResponseWriter, r *http.Request) error {
	it, err := s.svc.DiscontinueItem(r.Context(), principalFrom(r.Context()), readRequest(r, r.PathValue("shortID"), stockroom.Validation{}, nil))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, stockroom.StatusResult{ShortID: it.ShortID, Status: "discontinued"})
	return nil
}

// handleAliasList serves GET /Alias, optionally of one item (?itemID=).
func (s *Server) handleAliasList(w http.ResponseWriter, r *http.Request) error {
	q, readErr := queryOf(r)
	page, perr := parsePageRequest(q)
	itemID, _ := q.get("itemID")
	res, err := s.svc.ListAliases(r.Context(), principalFrom(r.Context()),
		readRequest(r, service.AliasQuery{ItemID: itemID, Page: page}, validationOf(perr), readErr))
	if err != nil {
		return err
	}
	writePage(w, res)
	return nil
}

// handleAliasCreate serves POST /Alias {"alias", "itemID"}.
func (s *Server) handleAliasCreate(w http.ResponseWriter, r *http.Request) error {
	created := answer{status: http.StatusCreated}
	req := withKey(r, jsonRequest[service.AliasRequest](r), created)
	al, err := s.svc.CreateAlias(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.respond(w, r, req.Key, created, al)
	return nil
}

// handleAliasDelete serves DELETE /Alias/{alias}.
func (s *Server) handleAliasDelete(w http.ResponseWriter, r *http.Request) error {
	al, err := s.svc.DeleteAlias(r.Context(), principalFrom(r.Context()), readRequest(r, r.PathValue("alias"), stockroom.Validation{}, nil))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, stockroom.StatusResult{Alias: al.Alias, Status: "deleted"})
	return nil
}
