package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// Customers, vendors and categories (contract §9).

// partyCreated is the answer of a created customer or vendor: 201 with
// its Location.
var partyCreated = answer{status: http.StatusCreated, location: locatorOf(func(p stockroom.Party) string {
	return "/api/v1/" + kindPath(p.Kind) + "/" + url.PathEscape(p.ShortID)
})}

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
		infoFrom(r.Context()).noun = kind.Path()
		req := withKey(r, jsonRequest[stockroom.PartyChange](r), partyCreated)
		p, err := s.svc.CreateParty(r.Context(), principalFrom(r.Context()), kind, req)
		if err != nil {
			return err
		}
		s.respond(w, r, req.Key, partyCreated, p)
		return nil
	}
}

// handlePartyUpdate serves PUT /Customer and /Vendor, a partial update.
func (s *Server) handlePartyUpdate(kind stockroom.PartyKind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		infoFrom(r.Context()).noun = kind.Path()
		p, err := s.svc.UpdateParty(r.Context(), principalFrom(r.Context()), kind, jsonRequest[stockroom.PartyChange](r))
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

// categoryCreated is the answer of a created category: 201 with its
// Location.
var categoryCreated = answer{status: http.StatusCreated, location: locatorOf(func(c stockroom.Category) string {
	return "/api/v1/Category/" + strconv.FormatInt(c.CategoryID, 10)
})}

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
	req := withKey(r, jsonRequest[stockroom.CategoryChange](r), categoryCreated)
	c, err := s.svc.CreateCategory(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.respond(w, r, req.Key, categoryCreated, c)
	return nil
}

// handleCategoryUpdate serves PUT /Category, a partial update.
func (s *Server) handleCategoryUpdate(w http.ResponseWriter, r *http.Request) error {
	c, err := s.svc.UpdateCategory(r.Context(), principalFrom(r.Context()), jsonRequest[stockroom.CategoryChange](r))
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
