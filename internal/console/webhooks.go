package console

import (
	"net/http"
	"net/url"

	"github.com/stockroom/stockroom"
)

type webhookData struct {
	ID       string
	Webhooks []stockroom.Webhook
	Webhook  map[string]any
	Log      []map[string]any
}

// webhooks lists the client's webhook subscriptions (GET /Webhook).
func (h *Handler) webhooks(w http.ResponseWriter, r *http.Request, s *session) {
	var d webhookData
	var list stockroom.Envelope[stockroom.Webhook]
	a := h.get(r, s, "/api/v1/Webhook", url.Values{"pageSize": {"100"}}, &list)
	d.Webhooks = list.Value
	h.screen(w, r, s, a, &view{page: "webhooks", Title: "Webhooks", Nav: "webhooks", Data: d})
}

// webhook shows one subscription and its delivery log (GET /Webhook/{id}/log).
func (h *Handler) webhook(w http.ResponseWriter, r *http.Request, s *session) {
	h.webhookScreen(w, r, s, answer{Status: http.StatusOK})
}

func (h *Handler) webhookScreen(w http.ResponseWriter, r *http.Request, s *session, refusal answer) {
	d := webhookData{ID: r.PathValue("id")}
	a := h.get(r, s, "/api/v1/Webhook/"+url.PathEscape(d.ID), nil, &d.Webhook)
	if a.ok() {
		var log stockroom.Envelope[map[string]any]
		a = h.get(r, s, "/api/v1/Webhook/"+url.PathEscape(d.ID)+"/log", url.Values{"pageSize": {"100"}}, &log)
		d.Log = log.Value
	}
	if a.ok() && !refusal.ok() {
		a = refusal
	}
	h.screen(w, r, s, a, &view{page: "webhook", Title: "Webhook " + d.ID, Nav: "webhooks", Data: d})
}

// webhookTest sends the subscription a test delivery now
// (POST /Webhook/{id}/test), which its log then shows.
func (h *Handler) webhookTest(w http.ResponseWriter, r *http.Request, s *session) {
	id := r.PathValue("id")
	a := h.call(r, s.token, http.MethodPost, "/api/v1/Webhook/"+url.PathEscape(id)+"/test", nil)
	if a.ok() {
		http.Redirect(w, r, Prefix+"/webhooks/"+url.PathEscape(id)+"?done="+url.QueryEscape("Test delivery sent."), http.StatusSeeOther)
		return
	}
	h.webhookScreen(w, r, s, a)
}
