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
	o, err := decodeObject(r)
	var v stockroom.Validation
	in := stockroom.ReceiveRequest{
		ItemID: o.strOr(&v, "itemID"), Units: o.unitsOr(&v, "units"), WID: o.intOr(&v, "wid"),
		ReasonCode: o.intOr(&v, "reasonCode"), Spot: o.strOr(&v, "spot"), Serial: o.strOr(&v, "serial"),
		Serial2: o.strOr(&v, "serial2"), RFIDTag: o.strOr(&v, "rfidTag"), Reference: o.strOr(&v, "reference"),
		Remark: o.strOr(&v, "remark"), NetWeight: o.unitsOr(&v, "netWeight"), GrossWeight: o.unitsOr(&v, "grossWeight"),
		Price: o.unitsOr(&v, "price"), Expires: o.time(&v, "expires"), Supplier: o.intOr(&v, "supplier"),
		Line: o.intOr(&v, "line"), JobID: o.intOr(&v, "jobid"), Owner: o.owner(&v, "owner"),
	}
	req := newRequest(r, in, v, err, http.StatusCreated, nil)
	res, err := s.svc.Receive(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(res.Type))
	s.respond(w, r, req.Key, http.StatusCreated, res, nil)
	return nil
}

// handleIssue serves POST /Inventory/Issue.
func (s *Server) handleIssue(w http.ResponseWriter, r *http.Request) error {
	o, err := decodeObject(r)
	var v stockroom.Validation
	in := stockroom.IssueRequest{
		ItemID: o.strOr(&v, "itemID"), Units: o.unitsOr(&v, "units"), WID: o.intOr(&v, "wid"),
		ReasonCode: o.intOr(&v, "reasonCode"), Spot: o.strOr(&v, "spot"), Serial: o.strOr(&v, "serial"),
		Serial2: o.strOr(&v, "serial2"), RFIDTag: o.strOr(&v, "rfidTag"), Reference: o.strOr(&v, "reference"),
		Remark: o.strOr(&v, "remark"), NetWeight: o.unitsOr(&v, "netWeight"), ShipTo: o.intOr(&v, "shipto"),
		ProdID: o.strOr(&v, "prodID"), RecNo: o.intOr(&v, "recno"), Line: o.intOr(&v, "line"), Owner: o.owner(&v, "owner"),
	}
	req := newRequest(r, in, v, err, http.StatusOK, nil)
	res, err := s.svc.Issue(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(res.Type))
	s.respond(w, r, req.Key, http.StatusOK, res, nil)
	return nil
}

// handleMove serves POST /Inventory/Move.
func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) error {
	o, err := decodeObject(r)
	var v stockroom.Validation
	in := stockroom.MoveRequest{
		ItemID: o.strOr(&v, "itemID"), Units: o.unitsOr(&v, "units"), WID: o.intOr(&v, "wid"),
		FromSpot: o.strOr(&v, "fromSpot"), ToSpot: o.str(&v, "toSpot"), ShipToWID: o.intOr(&v, "shipToWid"),
		TransitSlip: o.strOr(&v, "transitSlip"), Serial: o.strOr(&v, "serial"), Serial2: o.strOr(&v, "serial2"),
		RFIDTag: o.strOr(&v, "rfidTag"), Reference: o.strOr(&v, "reference"), RecNo: o.intOr(&v, "recno"),
		Owner:    o.owner(&v, "owner"),
		Received: o.time(&v, "received"),
	}
	req := newRequest(r, in, v, err, http.StatusOK, nil)
	res, err := s.svc.Move(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(res.Type))
	s.respond(w, r, req.Key, http.StatusOK, res, nil)
	return nil
}

// handleHold serves POST /Inventory/Hold and POST /Inventory/Release.
func (s *Server) handleHold(hold bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		o, err := decodeObject(r)
		var v stockroom.Validation
		req := newRequest(r, service.HoldRequest{RecNo: o.intOr(&v, "recno")}, v, err, http.StatusOK, nil)
		res, err := s.svc.SetHold(r.Context(), principalFrom(r.Context()), hold, req)
		if err != nil {
			return err
		}
		if res.TransactionID != nil {
			s.metrics.StockTransaction(string(res.Type))
		}
		s.respond(w, r, req.Key, http.StatusOK, res, nil)
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
		res, err := s.svc.ListLots(r.Context(), principalFrom(r.Context()), readRequest(r, service.Query[stockroom.LotFilter]{Filter: f, Page: page}, v, readErr))
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
		res, err := s.svc.ListStockLevels(r.Context(), principalFrom(r.Context()), readRequest(r, service.Query[stockroom.StockFilter]{Filter: f, Page: page}, v, readErr))
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
	f := stockroom.TransactionFilter{Owner: ownerParam(q, &v)}
	f.ItemShortID, _ = q.get("itemID")
	f.WID = widParam(q, &v)
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
	res, err := s.svc.ListTransactions(r.Context(), principalFrom(r.Context()), readRequest(r, service.Query[stockroom.TransactionFilter]{Filter: f, Page: page}, v, readErr))
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
	if e, ok := err.(*stockroom.Error); ok {
		for field, msgs := range e.Details {
			for _, m := range msgs {
				v.Add(field, m)
			}
		}
	}
	return v
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
	return ownerFromText(v, "owner", s)
}
