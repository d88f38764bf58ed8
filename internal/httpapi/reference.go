package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/api"
)

// handleWarehouseList serves GET /Warehouse: the warehouses in the client's
// scope.
func (s *Server) handleWarehouseList(w http.ResponseWriter, r *http.Request) error {
	page, err := s.svc.ListWarehouses(r.Context(), principalFrom(r.Context()), pageOnly(r))
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// handleReasonCodeList serves GET /ReasonCode.
func (s *Server) handleReasonCodeList(w http.ResponseWriter, r *http.Request) error {
	page, err := s.svc.ListReasonCodes(r.Context(), principalFrom(r.Context()), pageOnly(r))
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// handleHealth serves GET /healthz: the process is up.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// handleReady serves GET /readyz: the database answers.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	if err := s.svc.Ready(ctx); err != nil {
		if stockroom.ErrorCode(err) != stockroom.EUNAVAILABLE {
			err = fmt.Errorf("%w (%w)", stockroom.Errorf(stockroom.EUNAVAILABLE, stockroom.MsgDatabaseOffline), err)
		}
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	return nil
}

// handleOpenAPI serves the OpenAPI document that describes this API.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) error {
	doc, err := api.JSON()
	if err != nil {
		return err
	}
	// The same document for everyone: a cache may keep it, unlike the
	// API's answers; but never sniffed as anything but JSON.
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(doc)
	return nil
}
