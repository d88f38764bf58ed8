package httpapi

import (
	"cmp"
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
	o, err := decodeObject(r)
	var v stockroom.Validation
	in := service.ShipNoticeInput{PONo: r.PathValue("poNo")}
	in.ASN = o.strOr(&v, "asn")
	o.each(&v, "lines", func(el object, ev *stockroom.Validation) {
		in.Lines = append(in.Lines, stockroom.ShipNoticeLine{
			Line: el.intOr(ev, "line"), Units: el.unitsOr(ev, "units"), Serial: el.strOr(ev, "serial"),
			Serial2: el.strOr(ev, "serial2"), RFIDTag: el.strOr(ev, "rfidTag"),
		})
	})
	req := newRequest(r, in, v, err, http.StatusCreated, transitLocation)
	tr, err := s.svc.ShipPurchaseOrder(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(stockroom.TxASN))
	s.respond(w, r, req.Key, http.StatusCreated, tr, transitLocation)
	return nil
}

// transitLocation is the Location of a transit shipped.
func transitLocation(result any) string {
	return "/api/v1/Transit/" + strconv.FormatInt(result.(stockroom.Transit).ID, 10)
}

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
		res, err := s.svc.ListTransits(r.Context(), principalFrom(r.Context()), all,
			readRequest(r, service.Query[stockroom.TransitFilter]{Filter: f, Page: page}, v, readErr))
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
	var v stockroom.Validation
	o, err := optionalBody(r)
	in := service.TransitReceiveInput{}
	in.Spot = o.str(&v, "spot")
	o.each(&v, "lines", func(el object, ev *stockroom.Validation) {
		in.Lines = append(in.Lines, stockroom.TransitReceiveLine{
			Line: el.intOr(ev, "line"), Units: el.units(ev, "units"), Rejected: el.unitsOr(ev, "rejected"),
			ReasonCode: el.intOr(ev, "reasonCode"),
		})
	})
	var idErr error
	in.ID, idErr = pathTransitID(r)
	req := newRequest(r, in, v, cmp.Or(err, idErr), http.StatusOK, nil)
	res, err := s.svc.ReceiveTransit(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(stockroom.TxTransitReceive))
	s.respond(w, r, req.Key, http.StatusOK, res, nil)
	return nil
}

// handleTransitCancel serves POST /Transit/{id}/Cancel; a body, if any, is
// not read.
func (s *Server) handleTransitCancel(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTransitID(r)
	req := newRequest(r, id, stockroom.Validation{}, err, http.StatusOK, nil)
	tr, err := s.svc.CancelTransit(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.metrics.StockTransaction(string(stockroom.TxTransitCancel))
	s.respond(w, r, req.Key, http.StatusOK, tr, nil)
	return nil
}
