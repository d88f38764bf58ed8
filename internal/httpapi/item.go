package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// itemView is an item as clients read it: with the derived fields clients of
// the original product expect, active (the inverse of discontinued), and
// categoryID and unit beside category and uOM.
type itemView struct {
	stockroom.Item
	Active     bool   `json:"active"`
	CategoryID int64  `json:"categoryID"`
	Unit       string `json:"unit"`
}

func viewItem(it stockroom.Item) itemView {
	return itemView{Item: it, Active: !it.Discontinued, CategoryID: it.Category, Unit: it.UOM}
}

// parseItemChange reads an item body (create or update) and validates it,
// reporting type errors and rule errors together.
func parseItemChange(r *http.Request) (stockroom.ItemChange, error) {
	o, err := decodeObject(r)
	if err != nil {
		return stockroom.ItemChange{}, err
	}
	var v stockroom.Validation
	ch := stockroom.ItemChange{
		Description: o.str(&v, "description"),
		Category:    synonym(o, &v, "category", "categoryID", object.int),
		SubCategory: o.int(&v, "subCategory"),
		UOM:         synonym(o, &v, "uOM", "unit", object.str),
		PutUp:       o.str(&v, "putUp"),
		Units:       o.units(&v, "units"),
		DfltOwner:   o.int(&v, "dfltOwner"),
	}
	if s := o.str(&v, "shortID"); s != nil {
		ch.ShortID = *s
	}
	// active is the inverse of discontinued.
	disc, act := o.bool(&v, "discontinued"), o.bool(&v, "active")
	if act != nil {
		inv := !*act
		if disc != nil && *disc != inv {
			v.Add("active", "contradicts discontinued; give one of them")
		}
		disc = &inv
	}
	ch.Discontinued = disc
	ch.Validate(&v)
	return ch, v.Err()
}

// handleItemQuery serves GET /Item: a key lookup (?key=&type=), a category
// (?Category=, a plain array), or the paged list of active items.
func (s *Server) handleItemQuery(w http.ResponseWriter, r *http.Request) error {
	q, err := queryOf(r)
	if err != nil {
		return err
	}
	key, hasKey := q.get("key")
	typ, hasType := q.get("type")
	if hasKey || hasType {
		it, err := s.svc.LookupItem(r.Context(), key, typ)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, viewItem(it))
		return nil
	}
	if c, ok := q.get("category"); ok {
		cat, err := strconv.ParseInt(c, 10, 64)
		if err != nil {
			return stockroom.Invalid("Category", "must be an integer")
		}
		items, err := s.svc.ItemsInCategory(r.Context(), cat)
		if err != nil {
			return err
		}
		views := make([]itemView, len(items))
		for i, it := range items {
			views[i] = viewItem(it)
		}
		writeJSON(w, http.StatusOK, views)
		return nil
	}
	return s.listItems(w, q, r, false)
}

// handleItemListAll serves GET /Item/All, discontinued items included.
func (s *Server) handleItemListAll(w http.ResponseWriter, r *http.Request) error {
	q, err := queryOf(r)
	if err != nil {
		return err
	}
	return s.listItems(w, q, r, true)
}

func (s *Server) listItems(w http.ResponseWriter, q query, r *http.Request, all bool) error {
	req, err := parsePageRequest(q)
	if err != nil {
		return err
	}
	page, err := s.svc.ListItems(r.Context(), all, req)
	if err != nil {
		return err
	}
	writePage(w, mapPage(page, viewItem))
	return nil
}

// handleItemGet serves GET /Item/{id}, id being the partNo.
func (s *Server) handleItemGet(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		// Most likely a ShortID, which has its own lookup.
		key := r.PathValue("id")
		return stockroom.Errorf(stockroom.ENOTFOUND, "No item with partNo %q: the path takes a partNo; to find an item by ShortID, use GET /api/v1/Item?key=%s&type=id.", key, url.QueryEscape(key))
	}
	it, err := s.svc.GetItem(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewItem(it))
	return nil
}

// handleItemCreate serves POST /Item: 201 with the full item and its
// Location.
func (s *Server) handleItemCreate(w http.ResponseWriter, r *http.Request) error {
	ch, err := parseItemChange(r)
	if err != nil {
		return err
	}
	it, err := s.svc.CreateItem(r.Context(), principalFrom(r.Context()), ch)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/v1/Item/"+strconv.FormatInt(it.PartNo, 10))
	writeJSON(w, http.StatusCreated, viewItem(it))
	return nil
}

// statusBody is the small success body of updates and deletes.
type statusBody struct {
	ShortID string `json:"shortID,omitempty"`
	Alias   string `json:"alias,omitempty"`
	Status  string `json:"status"`
}

// handleItemUpdate serves PUT /Item, a partial update.
func (s *Server) handleItemUpdate(w http.ResponseWriter, r *http.Request) error {
	ch, err := parseItemChange(r)
	if err != nil {
		return err
	}
	it, err := s.svc.UpdateItem(r.Context(), ch)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, statusBody{ShortID: it.ShortID, Status: "updated"})
	return nil
}

// handleItemDelete serves DELETE /Item/{shortID}: the item is discontinued,
// never removed.
func (s *Server) handleItemDelete(w http.ResponseWriter, r *http.Request) error {
	it, err := s.svc.DiscontinueItem(r.Context(), r.PathValue("shortID"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, statusBody{ShortID: it.ShortID, Status: "discontinued"})
	return nil
}

// handleAliasList serves GET /Alias, optionally of one item (?itemID=).
func (s *Server) handleAliasList(w http.ResponseWriter, r *http.Request) error {
	q, err := queryOf(r)
	if err != nil {
		return err
	}
	req, err := parsePageRequest(q)
	if err != nil {
		return err
	}
	itemID, _ := q.get("itemID")
	page, err := s.svc.ListAliases(r.Context(), itemID, req)
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// handleAliasCreate serves POST /Alias {"alias", "itemID"}.
func (s *Server) handleAliasCreate(w http.ResponseWriter, r *http.Request) error {
	o, err := decodeObject(r)
	if err != nil {
		return err
	}
	var v stockroom.Validation
	alias, itemID := strings.TrimSpace(deref(o.str(&v, "alias"))), strings.TrimSpace(deref(o.str(&v, "itemID")))
	stockroom.ValidateKey(&v, "alias", alias)
	stockroom.ValidateKey(&v, "itemID", itemID)
	if err := v.Err(); err != nil {
		return err
	}
	al, err := s.svc.CreateAlias(r.Context(), alias, itemID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, al)
	return nil
}

// handleAliasDelete serves DELETE /Alias/{alias}.
func (s *Server) handleAliasDelete(w http.ResponseWriter, r *http.Request) error {
	al, err := s.svc.DeleteAlias(r.Context(), r.PathValue("alias"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, statusBody{Alias: al.Alias, Status: "deleted"})
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
