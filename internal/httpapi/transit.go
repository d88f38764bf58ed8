package httpapi

import (
	"net/http"
	"strconv"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// Transits (contract §10): advance ship notices, and the list, receipt and
// cancel of transits. A transfer is a move (handleMove).

// handleShipNotice serves POST /PurchaseOrder/{poNo}/Ship: 201 with the
// transit.
func (s *Server) handleShipNotice(w http.ResponseWriter, r *http.Request) error {
	in := service.ShipNoticeInput{PONo: r.PathValue("poNo")}
	req := withKey(r, bodyRequest(r, in, nil, func(in *service.ShipNoticeInput) any { return &in.ShipNoticeRequest }, false), transitShipped)
	tr, err := s.svc.ShipPurchaseOrder(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(stockroom.TxASN))
	s.respond(w, r, req.Key, transitShipped, tr)
	return nil
}

// transitShipped is the answer of a transit shipped: 201 with its
// Location.
var transitShipped = answer{status: http.StatusCreated, location: locatorOf(func(tr stockroom.Transit) string {
	return "/api/v1/Transit/" + strconv.FormatInt(tr.ID, 10)
})}

// pathTransitID reads the {id} of a transit's path; a non-integer is not
// found.
func pathTransitID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, stockroom.Errorf(stockroom.ENOTFOUND, "No transit %q.", r.PathValue("id"))
	}
	return id, nil
}

// handleTransitList serves GET /Transit (open transits) and
// GET /Transit/All.
func (s *Server) handleTransitList(all bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		_, q, page, v, readErr := listRequest(r, false)
		f := stockroom.TransitFilter{WID: widParam(q, &v), Owner: ownerParam(q, &v)}
		if st, ok := q.get("status"); ok {
			var known bool
			if f.Status, known = stockroom.ParseTransitStatus(st); !known {
				v.Add("status", "must be one of InTransit, Partial, Received, Canceled")
			}
		}
		req := readRequest(r, service.Query[stockroom.TransitFilter]{Filter: f, Page: page}, v, readErr)
		if wantsCSV(r) {
			return writeExport(s, w, r, "transits.csv", func(fn func(stockroom.Transit) error) error {
				return s.svc.ExportTransits(r.Context(), principalFrom(r.Context()), all, req, fn)
			})
		}
		res, err := s.svc.ListTransits(r.Context(), principalFrom(r.Context()), all, req)
		if err != nil {
			return err
		}
		writePage(w, res)
		return nil
	}
}

// handleTransitGet serves GET /Transit/{id}.
func (s *Server) handleTransitGet(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTransitID(r)
	tr, err := s.svc.GetTransit(r.Context(), principalFrom(r.Context()), readRequest(r, id, stockroom.Validation{}, err))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, tr)
	return nil
}

// handleTransitReceive serves POST /Transit/{id}/Receive. An empty body
// receives everything still due.
func (s *Server) handleTransitReceive(w http.ResponseWriter, r *http.Request) error {
	var in service.TransitReceiveInput
	id, idErr := pathTransitID(r)
	in.ID = id
	body := func(in *service.TransitReceiveInput) any { return &in.TransitReceiveRequest }
	req := withKey(r, bodyRequest(r, in, idErr, body, true), answerOK)
	res, err := s.svc.ReceiveTransit(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(stockroom.TxTransitReceive))
	s.respond(w, r, req.Key, answerOK, res)
	return nil
}

// handleTransitCancel serves POST /Transit/{id}/Cancel; a body, if any, is
// not read.
func (s *Server) handleTransitCancel(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTransitID(r)
	req := withKey(r, readRequest(r, id, stockroom.Validation{}, err), answerOK)
	tr, err := s.svc.CancelTransit(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(stockroom.TxTransitCancel))
	s.respond(w, r, req.Key, answerOK, tr)
	return nil
}
