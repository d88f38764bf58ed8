package httpapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// handleReceive serves POST /Inventory/Receive.
func (s *Server) handleReceive(w http.ResponseWriter, r *http.Request) error {
	o, err := decodeObject(r)
	if err != nil {
		return err
	}
	var v stockroom.Validation
	req := stockroom.ReceiveRequest{
		ItemID: o.strOr(&v, "itemID"), Units: o.unitsOr(&v, "units"), WID: o.intOr(&v, "wid"),
		ReasonCode: o.intOr(&v, "reasonCode"), Spot: o.strOr(&v, "spot"), Serial: o.strOr(&v, "serial"),
		Serial2: o.strOr(&v, "serial2"), RFIDTag: o.strOr(&v, "rfidTag"), Reference: o.strOr(&v, "reference"),
		Remark: o.strOr(&v, "remark"), NetWeight: o.unitsOr(&v, "netWeight"), GrossWeight: o.unitsOr(&v, "grossWeight"),
		Price: o.unitsOr(&v, "price"), Expires: o.time(&v, "expires"), Supplier: o.intOr(&v, "supplier"),
		Line: o.intOr(&v, "line"), JobID: o.intOr(&v, "jobid"),
	}
	lot, id, err := s.svc.Receive(r.Context(), principalFrom(r.Context()), req, &v)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(stockroom.TxReceive)
	writeJSON(w, http.StatusCreated, struct {
		TransactionID int64         `json:"transactionID"`
		Type          string        `json:"type"`
		RecNo         int64         `json:"recNo"`
		Lot           stockroom.Lot `json:"lot"`
	}{id, stockroom.TxReceive, lot.RecNo, lot})
	return nil
}

// drawResult is the body of issue and move responses.
type drawResult struct {
	TransactionID int64            `json:"transactionID"`
	Type          string           `json:"type"`
	ItemID        string           `json:"itemID"`
	WID           int64            `json:"wid"`
	ToWID         *int64           `json:"toWid,omitempty"`
	ToSpot        *string          `json:"toSpot,omitempty"`
	Units         stockroom.Units  `json:"units"`
	Lines         []drawResultLine `json:"lines"`
}

type drawResultLine struct {
	RecNo     int64           `json:"recNo"`
	Units     stockroom.Units `json:"units"`
	Remaining stockroom.Units `json:"remaining"`
	NewRecNo  *int64          `json:"newRecNo,omitempty"`
}

func linesOf(draws []stockroom.Draw, move bool) []drawResultLine {
	out := make([]drawResultLine, len(draws))
	for i, d := range draws {
		out[i] = drawResultLine{RecNo: d.RecNo, Units: d.Units, Remaining: d.Remaining}
		if move {
			out[i].NewRecNo = &draws[i].NewRecNo
		}
	}
	return out
}

// handleIssue serves POST /Inventory/Issue.
func (s *Server) handleIssue(w http.ResponseWriter, r *http.Request) error {
	o, err := decodeObject(r)
	if err != nil {
		return err
	}
	var v stockroom.Validation
	req := stockroom.IssueRequest{
		ItemID: o.strOr(&v, "itemID"), Units: o.unitsOr(&v, "units"), WID: o.intOr(&v, "wid"),
		ReasonCode: o.intOr(&v, "reasonCode"), Spot: o.strOr(&v, "spot"), Serial: o.strOr(&v, "serial"),
		Serial2: o.strOr(&v, "serial2"), RFIDTag: o.strOr(&v, "rfidTag"), Reference: o.strOr(&v, "reference"),
		Remark: o.strOr(&v, "remark"), NetWeight: o.unitsOr(&v, "netWeight"), ShipTo: o.intOr(&v, "shipto"),
		ProdID: o.strOr(&v, "prodID"), RecNo: o.intOr(&v, "recno"), Line: o.intOr(&v, "line"),
	}
	draws, id, err := s.svc.Issue(r.Context(), principalFrom(r.Context()), req, &v)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(stockroom.TxIssue)
	writeJSON(w, http.StatusOK, drawResult{TransactionID: id, Type: stockroom.TxIssue, ItemID: req.ItemID, WID: req.WID,
		Units: req.Units, Lines: linesOf(draws, false)})
	return nil
}

// handleMove serves POST /Inventory/Move.
func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) error {
	o, err := decodeObject(r)
	if err != nil {
		return err
	}
	var v stockroom.Validation
	req := stockroom.MoveRequest{
		ItemID: o.strOr(&v, "itemID"), Units: o.unitsOr(&v, "units"), WID: o.intOr(&v, "wid"),
		FromSpot: o.strOr(&v, "fromSpot"), ToSpot: o.str(&v, "toSpot"), ShipToWID: o.intOr(&v, "shipToWid"),
		TransitSlip: o.strOr(&v, "transitSlip"), Serial: o.strOr(&v, "serial"), Serial2: o.strOr(&v, "serial2"),
		RFIDTag: o.strOr(&v, "rfidTag"), Reference: o.strOr(&v, "reference"), RecNo: o.intOr(&v, "recno"),
		Received: o.time(&v, "received"),
	}
	draws, id, toWID, toSpot, err := s.svc.Move(r.Context(), principalFrom(r.Context()), req, &v)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(stockroom.TxMove)
	writeJSON(w, http.StatusOK, drawResult{TransactionID: id, Type: stockroom.TxMove, ItemID: req.ItemID, WID: req.WID,
		ToWID: &toWID, ToSpot: &toSpot, Units: req.Units, Lines: linesOf(draws, true)})
	return nil
}

// handleHold serves POST /Inventory/Hold and POST /Inventory/Release.
func (s *Server) handleHold(hold bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		o, err := decodeObject(r)
		if err != nil {
			return err
		}
		var v stockroom.Validation
		recNo := o.intOr(&v, "recno")
		if err := v.Err(); err != nil {
			return err
		}
		lot, id, err := s.svc.SetHold(r.Context(), principalFrom(r.Context()), recNo, hold)
		if err != nil {
			return err
		}
		typ := stockroom.TxHold
		if !hold {
			typ = stockroom.TxRelease
		}
		if id != 0 {
			s.metrics.StockTransaction(typ)
		}
		writeJSON(w, http.StatusOK, struct {
			TransactionID *int64        `json:"transactionID"`
			Type          string        `json:"type"`
			RecNo         int64         `json:"recNo"`
			Lot           stockroom.Lot `json:"lot"`
		}{nonZero(id), typ, lot.RecNo, lot})
		return nil
	}
}

func nonZero(n int64) *int64 {
	if n == 0 {
		return nil
	}
	return &n
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
// are collected in v for the list's own filters to add to.
func listRequest(r *http.Request, byWarehouse bool) (wid int64, q query, req stockroom.PageRequest, v stockroom.Validation, err error) {
	if byWarehouse {
		if wid, err = pathWID(r); err != nil {
			return
		}
	}
	if q, err = queryOf(r); err != nil {
		return
	}
	req, perr := parsePageRequest(q)
	return wid, q, req, validationOf(perr), nil
}

// handleLotList serves GET /Inventory and GET /Inventory/{wid}.
func (s *Server) handleLotList(byWarehouse bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		wid, q, req, v, err := listRequest(r, byWarehouse)
		if err != nil {
			return err
		}
		f := stockroom.LotFilter{WID: wid}
		f.ItemShortID, _ = q.get("itemID")
		if spot, ok := q.get("spot"); ok {
			f.Spot = &spot
		}
		f.Serial, _ = q.get("serial")
		f.Hold = boolParam(q, &v, "hold")
		if b := boolParam(q, &v, "includeShipped"); b != nil {
			f.IncludeShipped = *b
		}
		if err := v.Err(); err != nil {
			return err
		}
		page, err := s.svc.ListLots(r.Context(), principalFrom(r.Context()), f, req)
		if err != nil {
			return err
		}
		writePage(w, page)
		return nil
	}
}

// handleStockLevels serves GET /Inventory/StockLevels and
// GET /Inventory/StockLevels/{wid}.
func (s *Server) handleStockLevels(byWarehouse bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		wid, q, req, v, err := listRequest(r, byWarehouse)
		if err != nil {
			return err
		}
		f := stockroom.StockFilter{WID: wid}
		f.ItemShortID, _ = q.get("itemID")
		if b := boolParam(q, &v, "includeZero"); b != nil {
			f.IncludeZero = *b
		}
		if err := v.Err(); err != nil {
			return err
		}
		page, err := s.svc.ListStockLevels(r.Context(), principalFrom(r.Context()), f, req)
		if err != nil {
			return err
		}
		writePage(w, page)
		return nil
	}
}

var transactionTypes = []string{stockroom.TxReceive, stockroom.TxIssue, stockroom.TxMove, stockroom.TxHold, stockroom.TxRelease}

// handleTransactionList serves GET /Inventory/Transactions.
func (s *Server) handleTransactionList(w http.ResponseWriter, r *http.Request) error {
	_, q, req, v, err := listRequest(r, false)
	if err != nil {
		return err
	}
	var f stockroom.TransactionFilter
	f.ItemShortID, _ = q.get("itemID")
	if wid, ok := q.get("wid"); ok {
		n, err := strconv.ParseInt(wid, 10, 64)
		if err != nil || n < 1 {
			v.Add("wid", "must be a warehouse id")
		}
		f.WID = n
	}
	if t, ok := q.get("type"); ok {
		f.Type = strings.ToLower(strings.TrimSpace(t))
		if !slices.Contains(transactionTypes, f.Type) {
			v.Add("type", "must be one of "+strings.Join(transactionTypes, ", "))
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	page, err := s.svc.ListTransactions(r.Context(), principalFrom(r.Context()), f, req)
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// handleTransactionGet serves GET /Inventory/Transactions/{id}.
func (s *Server) handleTransactionGet(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return stockroom.Errorf(stockroom.ENOTFOUND, "No transaction %q.", r.PathValue("id"))
	}
	t, err := s.svc.GetTransaction(r.Context(), principalFrom(r.Context()), id)
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
