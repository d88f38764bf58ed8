package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// handleReceive serves POST /Inventory/Receive.
func (s *Server) handleReceive(w http.ResponseWriter, r *http.Request) error {
	created := answer{status: http.StatusCreated}
	req := withKey(r, jsonRequest[stockroom.ReceiveRequest](r), created)
	res, err := s.svc.Receive(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(res.Type))
	s.respond(w, r, req.Key, created, res)
	return nil
}

// handleIssue serves POST /Inventory/Issue.
func (s *Server) handleIssue(w http.ResponseWriter, r *http.Request) error {
	req := withKey(r, jsonRequest[stockroom.IssueRequest](r), answerOK)
	res, err := s.svc.Issue(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(res.Type))
	s.respond(w, r, req.Key, answerOK, res)
	return nil
}

// handleMove serves POST /Inventory/Move.
func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) error {
	req := withKey(r, jsonRequest[stockroom.MoveRequest](r), answerOK)
	res, err := s.svc.Move(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(res.Type))
	s.respond(w, r, req.Key, answerOK, res)
	return nil
}

// handleHold serves POST /Inventory/Hold and POST /Inventory/Release.
func (s *Server) handleHold(hold bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		req := withKey(r, jsonRequest[stockroom.HoldRequest](r), answerOK)
		res, err := s.svc.SetHold(r.Context(), principalFrom(r.Context()), hold, req)
		if err != nil {
			return err
		}
		if res.TransactionID != nil {
			s.metrics.StockTransaction(string(res.Type))
		}
		s.respond(w, r, req.Key, answerOK, res)
		return nil
	}
}

// pathWID reads the {wid} of a path; a non-integer is not found.
func pathWID(r *http.Request) (int64, error) {
	wid, err := strconv.ParseInt(r.PathValue("wid"), 10, 64)
	if err != nil || wid < 1 {
		return 0, stockroom.Errorf(stockroom.ENOTFOUND, "No warehouse %q.", r.PathValue("wid"))
	}
	return wid, nil
}

// boolParam reads an optional true/false query parameter.
func boolParam(q query, v *stockroom.Validation, name string) *bool {
	s, ok := q.get(name)
	if !ok {
		return nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		v.Add(name, "must be true or false")
		return nil
	}
	return &b
}

// listRequest reads what every inventory list takes: the {wid} of the path
// (when byWarehouse), the query, and the paging parameters, whose problems
// are collected in v for the list's own filters to add to. readErr is why
// the request cannot be read, for the service to report after the
// permission check.
func listRequest(r *http.Request, byWarehouse bool) (wid int64, q query, req stockroom.PageRequest, v stockroom.Validation, readErr error) {
	if byWarehouse {
		wid, readErr = pathWID(r)
	}
	q, err := queryOf(r)
	if readErr == nil {
		readErr = err
	}
	req, perr := parsePageRequest(q)
	return wid, q, req, validationOf(perr), readErr
}

// handleLotList serves GET /Inventory and GET /Inventory/{wid}.
func (s *Server) handleLotList(byWarehouse bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		wid, q, page, v, readErr := listRequest(r, byWarehouse)
		f := stockroom.LotFilter{WID: wid, Owner: ownerParam(q, &v)}
		f.ItemShortID, _ = q.get("itemID")
		if spot, ok := q.get("spot"); ok {
			f.Spot = &spot
		}
		f.Serial, _ = q.get("serial")
		f.Hold = boolParam(q, &v, "hold")
		if b := boolParam(q, &v, "includeShipped"); b != nil {
			f.IncludeShipped = *b
		}
		req := readRequest(r, service.Query[stockroom.LotFilter]{Filter: f, Page: page}, v, readErr)
		if wantsCSV(r) {
			return writeExport(s, w, r, "lots.csv", func(fn func(stockroom.Lot) error) error {
				return s.svc.ExportLots(r.Context(), principalFrom(r.Context()), req, fn)
			})
		}
		res, err := s.svc.ListLots(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		writePage(w, res)
		return nil
	}
}

// handleStockLevels serves GET /Inventory/StockLevels and
// GET /Inventory/StockLevels/{wid}.
func (s *Server) handleStockLevels(byWarehouse bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		wid, q, page, v, readErr := listRequest(r, byWarehouse)
		f := stockroom.StockFilter{WID: wid, Owner: ownerParam(q, &v)}
		f.ItemShortID, _ = q.get("itemID")
		if b := boolParam(q, &v, "includeZero"); b != nil {
			f.IncludeZero = *b
		}
		req := readRequest(r, service.Query[stockroom.StockFilter]{Filter: f, Page: page}, v, readErr)
		if wantsCSV(r) {
			return writeExport(s, w, r, "stocklevels.csv", func(fn func(stockroom.StockLevel) error) error {
				return s.svc.ExportStockLevels(r.Context(), principalFrom(r.Context()), req, fn)
			})
		}
		res, err := s.svc.ListStockLevels(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		writePage(w, res)
		return nil
	}
}

// handleTransactionList serves GET /Inventory/Transactions.
func (s *Server) handleTransactionList(w http.ResponseWriter, r *http.Request) error {
	_, q, page, v, readErr := listRequest(r, false)
	f := stockroom.TransactionFilter{Owner: ownerParam(q, &v), WID: widParam(q, &v)}
	f.ItemShortID, _ = q.get("itemID")
	if t, ok := q.get("type"); ok {
		typ, known := stockroom.ParseTxType(t)
		if !known {
			names := make([]string, len(stockroom.TxTypes))
			for i, t := range stockroom.TxTypes {
				names[i] = string(t)
			}
			v.Add("type", "must be one of "+strings.Join(names, ", "))
		}
		f.Type = typ
	}
	req := readRequest(r, service.Query[stockroom.TransactionFilter]{Filter: f, Page: page}, v, readErr)
	if wantsCSV(r) {
		return writeExport(s, w, r, "transactions.csv", func(fn func(stockroom.Transaction) error) error {
			return s.svc.ExportTransactions(r.Context(), principalFrom(r.Context()), req, fn)
		})
	}
	res, err := s.svc.ListTransactions(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	writePage(w, res)
	return nil
}

// handleTransactionGet serves GET /Inventory/Transactions/{id}.
func (s *Server) handleTransactionGet(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		err = stockroom.Errorf(stockroom.ENOTFOUND, "No transaction %q.", r.PathValue("id"))
	}
	t, err := s.svc.GetTransaction(r.Context(), principalFrom(r.Context()), readRequest(r, id, stockroom.Validation{}, err))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, t)
	return nil
}

// validationOf continues collecting after the paging parser, so bad paging
// and bad filters are reported together.
func validationOf(err error) stockroom.Validation {
	var v stockroom.Validation
	addPrefixed(&v, "", err)
	return v
}

// addPrefixed adds the field problems of err, a validation error or nil, to
// v under names with the given prefix (a line's "lines[2].").
func addPrefixed(v *stockroom.Validation, prefix string, err error) {
	if e, ok := err.(*stockroom.Error); ok {
		for field, msgs := range e.Details {
			for _, m := range msgs {
				v.Add(prefix+field, m)
			}
		}
	}
}

// widParam reads ?wid=, a warehouse id (0 when absent).
func widParam(q query, v *stockroom.Validation) int64 {
	wid, ok := q.get("wid")
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(wid, 10, 64)
	if err != nil || n < 1 {
		v.Add("wid", "must be a warehouse id")
	}
	return n
}

// ownerParam reads ?owner=: a customerID, 0 for the house's own stock, or a
// customer ShortID.
func ownerParam(q query, v *stockroom.Validation) *stockroom.OwnerRef {
	s, ok := q.get("owner")
	if !ok {
		return nil
	}
	ref := stockroom.ParseOwnerRef(s)
	switch {
	case strings.TrimSpace(s) == "":
		v.Add("owner", "is empty: give a customerID, 0 or a customer ShortID")
	case ref.ShortID == "" && ref.ID < 0:
		v.Add("owner", "must be a customerID, 0 or a customer ShortID")
	default:
		return &ref
	}
	return nil
}
