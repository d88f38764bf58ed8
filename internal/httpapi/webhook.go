package httpapi

import (
	"cmp"
	"net/http"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// webhookRoutes are the routes of webhook subscriptions (contract §12).
func (s *Server) webhookRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/Webhook", handle: s.handleWebhookList},
		{pattern: "GET /api/v1/Webhook/{id}", handle: s.handleWebhookGet},
		{pattern: "POST /api/v1/Webhook", handle: s.handleWebhookCreate},
		{pattern: "PUT /api/v1/Webhook/{id}", handle: s.handleWebhookUpdate},
		{pattern: "DELETE /api/v1/Webhook/{id}", handle: s.handleWebhookDelete},
		{pattern: "POST /api/v1/Webhook/{id}/test", handle: s.handleWebhookTest},
		{pattern: "GET /api/v1/Webhook/{id}/log", handle: s.handleWebhookLog},
	}
}

// webhookCreated is the answer of a created subscription: 201 with its
// Location (and its secret, this once).
var webhookCreated = answer{status: http.StatusCreated, location: locatorOf(func(w stockroom.Webhook) string {
	return "/api/v1/Webhook/" + strconv.FormatInt(w.Rec, 10)
})}

// webhookID reads the {id} of a webhook path; one that is not a positive
// integer names nothing (404).
func webhookID(r *http.Request) (int64, error) {
	raw := r.PathValue("id")
	id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || id < 1 {
		return 0, stockroom.Errorf(stockroom.ENOTFOUND, "No webhook %q: the path takes a webhook's rec.", raw)
	}
	return id, nil
}

// webhookRequest is the request of a route whose only input is the path's
// subscription.
func webhookRequest(r *http.Request) service.Request[int64] {
	id, err := webhookID(r)
	return readRequest(r, id, stockroom.Validation{}, err)
}

// handleWebhookList serves GET /Webhook: the client's own subscriptions.
func (s *Server) handleWebhookList(w http.ResponseWriter, r *http.Request) error {
	page, err := s.svc.ListWebhooks(r.Context(), principalFrom(r.Context()), pageOnly(r))
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// handleWebhookGet serves GET /Webhook/{id}.
func (s *Server) handleWebhookGet(w http.ResponseWriter, r *http.Request) error {
	wh, err := s.svc.GetWebhook(r.Context(), principalFrom(r.Context()), webhookRequest(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wh)
	return nil
}

// handleWebhookCreate serves POST /Webhook: 201 with the subscription, its
// secret shown this once, and its Location.
func (s *Server) handleWebhookCreate(w http.ResponseWriter, r *http.Request) error {
	req := withKey(r, jsonRequest[stockroom.WebhookChange](r), webhookCreated)
	wh, err := s.svc.CreateWebhook(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.respond(w, r, req.Key, webhookCreated, wh)
	return nil
}

// handleWebhookUpdate serves PUT /Webhook/{id}, a partial update.
func (s *Server) handleWebhookUpdate(w http.ResponseWriter, r *http.Request) error {
	id, pathErr := webhookID(r)
	req := bodyRequest(r, service.WebhookUpdate{Rec: id}, pathErr, func(in *service.WebhookUpdate) any { return &in.Change }, false)
	wh, err := s.svc.UpdateWebhook(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wh)
	return nil
}

// handleWebhookDelete serves DELETE /Webhook/{id}: 204.
func (s *Server) handleWebhookDelete(w http.ResponseWriter, r *http.Request) error {
	if err := s.svc.DeleteWebhook(r.Context(), principalFrom(r.Context()), webhookRequest(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleWebhookTest serves POST /Webhook/{id}/test: a signed test payload
// sent now, answered with the attempt's outcome.
func (s *Server) handleWebhookTest(w http.ResponseWriter, r *http.Request) error {
	d, err := s.svc.TestWebhook(r.Context(), principalFrom(r.Context()), webhookRequest(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}

// handleWebhookLog serves GET /Webhook/{id}/log: the attempts of the last
// 7 days, newest first.
func (s *Server) handleWebhookLog(w http.ResponseWriter, r *http.Request) error {
	id, pathErr := webhookID(r)
	q, readErr := queryOf(r)
	page, err := parsePageRequest(q)
	in := service.WebhookLogQuery{Rec: id, Page: page}
	log, err := s.svc.WebhookLog(r.Context(), principalFrom(r.Context()), readRequest(r, in, validationOf(err), cmp.Or(readErr, pathErr)))
	if err != nil {
		return err
	}
	writePage(w, log)
	return nil
}
