package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// Customers, vendors and categories (contract §9).

// readPartyChange reads a customer or vendor body (create or update); its
// fields' type errors are collected in v.
func readPartyChange(r *http.Request) (stockroom.PartyChange, stockroom.Validation, error) {
	var v stockroom.Validation
	o, err := decodeObject(r)
	ch := stockroom.PartyChange{
		ShortID:  o.strOr(&v, "shortID"),
		Name:     o.str(&v, "name"),
		Address1: o.str(&v, "address1"),
		Address2: o.str(&v, "address2"),
		City:     o.str(&v, "city"),
		State:    o.str(&v, "state"),
		Zip:      o.str(&v, "zip"),
		Country:  o.str(&v, "country"),
		Phone:    o.str(&v, "phone"),
		Fax:      o.str(&v, "fax"),
		Email:    o.str(&v, "email"),
		Contact:  o.str(&v, "contact"),
		Active:   o.bool(&v, "active"),
	}
	return ch, v, err
}

// partyLocation is the Location of a created customer or vendor.
func partyLocation(result any) string {
	p := result.(stockroom.Party)
	return "/api/v1/" + kindPath(p.Kind) + "/" + url.PathEscape(p.ShortID)
}

// kindPath is the resource name of a kind of party.
func kindPath(kind stockroom.PartyKind) string {
	if kind == stockroom.Vendor {
		return "Vendor"
	}
	return "Customer"
}

// handlePartyList serves GET /Customer and /Vendor (active ones) and
// GET /Customer/All and /Vendor/All.
func (s *Server) handlePartyList(kind stockroom.PartyKind, all bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		page, err := s.svc.ListParties(r.Context(), principalFrom(r.Context()), kind, all, pageOnly(r))
		if err != nil {
			return err
		}
		writePage(w, page)
		return nil
	}
}

// handlePartyGet serves GET /Customer/{shortID} and /Vendor/{shortID}.
func (s *Server) handlePartyGet(kind stockroom.PartyKind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		req := readRequest(r, r.PathValue("shortID"), stockroom.Validation{}, nil)
		p, err := s.svc.GetParty(r.Context(), principalFrom(r.Context()), kind, req)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, p)
		return nil
	}
}

// handlePartyCreate serves POST /Customer and /Vendor: 201 with the full
// record and its Location.
func (s *Server) handlePartyCreate(kind stockroom.PartyKind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ch, v, err := readPartyChange(r)
		req := newRequest(r, ch, v, err, http.StatusCreated, partyLocation)
		p, err := s.svc.CreateParty(r.Context(), principalFrom(r.Context()), kind, req)
		if err != nil {
			return err
		}
		s.respond(w, r, req.Key, http.StatusCreated, p, partyLocation)
		return nil
	}
}

// handlePartyUpdate serves PUT /Customer and /Vendor, a partial update.
func (s *Server) handlePartyUpdate(kind stockroom.PartyKind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ch, v, err := readPartyChange(r)
		p, err := s.svc.UpdateParty(r.Context(), principalFrom(r.Context()), kind, readRequest(r, ch, v, err))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, stockroom.StatusResult{ShortID: p.ShortID, Status: "updated"})
		return nil
	}
}

// handlePartyDelete serves DELETE /Customer/{shortID} and /Vendor/{shortID}:
// the record is set inactive, never removed.
func (s *Server) handlePartyDelete(kind stockroom.PartyKind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		req := readRequest(r, r.PathValue("shortID"), stockroom.Validation{}, nil)
		p, err := s.svc.DiscontinueParty(r.Context(), principalFrom(r.Context()), kind, req)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, stockroom.StatusResult{ShortID: p.ShortID, Status: "discontinued"})
		return nil
	}
}

// readCategoryChange reads a category body (create or update).
func readCategoryChange(r *http.Request) (stockroom.CategoryChange, stockroom.Validation, error) {
	var v stockroom.Validation
	o, err := decodeObject(r)
	ch := stockroom.CategoryChange{
		CategoryID:  o.intOr(&v, "categoryID"),
		Name:        o.str(&v, "name"),
		Description: o.str(&v, "description"),
		Active:      o.bool(&v, "active"),
	}
	return ch, v, err
}

// categoryLocation is the Location of a created category.
func categoryLocation(result any) string {
	return "/api/v1/Category/" + strconv.FormatInt(result.(stockroom.Category).CategoryID, 10)
}

// categoryID reads the {id} of a category path; one that is not a positive
// integer names nothing (404).
func categoryID(r *http.Request) (int64, error) {
	raw := r.PathValue("id")
	id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || id < 1 {
		return 0, stockroom.Errorf(stockroom.ENOTFOUND, "No category %q: the path takes a categoryID.", raw)
	}
	return id, nil
}

// handleCategoryList serves GET /Category (active ones) and
// GET /Category/All.
func (s *Server) handleCategoryList(all bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		page, err := s.svc.ListCategories(r.Context(), principalFrom(r.Context()), all, pageOnly(r))
		if err != nil {
			return err
		}
		writePage(w, page)
		return nil
	}
}

// handleCategoryGet serves GET /Category/{id}.
func (s *Server) handleCategoryGet(w http.ResponseWriter, r *http.Request) error {
	id, err := categoryID(r)
	c, err := s.svc.GetCategory(r.Context(), principalFrom(r.Context()), readRequest(r, id, stockroom.Validation{}, err))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c)
	return nil
}

// handleCategoryCreate serves POST /Category: 201 with the category and
// its Location.
func (s *Server) handleCategoryCreate(w http.ResponseWriter, r *http.Request) error {
	ch, v, err := readCategoryChange(r)
	req := newRequest(r, ch, v, err, http.StatusCreated, categoryLocation)
	c, err := s.svc.CreateCategory(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.respond(w, r, req.Key, http.StatusCreated, c, categoryLocation)
	return nil
}

// handleCategoryUpdate serves PUT /Category, a partial update.
func (s *Server) handleCategoryUpdate(w http.ResponseWriter, r *http.Request) error {
	ch, v, err := readCategoryChange(r)
	c, err := s.svc.UpdateCategory(r.Context(), principalFrom(r.Context()), readRequest(r, ch, v, err))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, stockroom.StatusResult{CategoryID: c.CategoryID, Status: "updated"})
	return nil
}

// handleCategoryDelete serves DELETE /Category/{id}: the category is set
// inactive, never removed.
func (s *Server) handleCategoryDelete(w http.ResponseWriter, r *http.Request) error {
	id, err := categoryID(r)
	c, err := s.svc.DiscontinueCategory(r.Context(), principalFrom(r.Context()), readRequest(r, id, stockroom.Validation{}, err))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, stockroom.StatusResult{CategoryID: c.CategoryID, Status: "discontinued"})
	return nil
}
