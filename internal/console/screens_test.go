package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

func TestConsoleTransits(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *site) {
		if err := s.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: 2, Name: "North", Active: true}); err != nil {
			t.Fatal(err)
		}
		s.apiCall(t, http.MethodPost, "/api/v1/Item", `{"shortID":"BOLT"}`)
		s.apiCall(t, http.MethodPost, "/api/v1/Inventory/Receive", `{"itemID":"BOLT","units":50,"wid":1,"reasonCode":1}`)
		b := s.browser(t)
		b.signIn(s.adminID, s.secret)
		if p := b.get("/console/transits"); !strings.Contains(p.body, "No transits yet") {
			t.Fatalf("transits before any: %d, want the empty state", p.status)
		}
		s.apiCall(t, http.MethodPost, "/api/v1/Inventory/Move", `{"itemID":"BOLT","units":30,"wid":1,"shipToWid":2,"toSpot":"R-10","transitSlip":"TS-1"}`)
		if p := b.get("/console/transits"); !strings.Contains(p.body, "TS-1") {
			t.Fatal("the transit is not listed")
		}
		if p := b.post("/console/transits/1/receive", url.Values{}); p.status != http.StatusSeeOther {
			t.Fatalf("receive the transit: %d %s", p.status, p.body)
		}
		if p := b.get("/console/levels?wid=2"); !strings.Contains(p.body, `data-figure="inStock">30<`) {
			t.Fatal("warehouse 2 does not show the 30 received")
		}
		if p := b.post("/console/transits/1/receive", url.Values{}); p.status < 400 || !strings.Contains(p.body, `id="page-error"`) {
			t.Errorf("receive a received transit again: %d, want the API's refusal", p.status)
		}
	})
}

func TestConsoleWebhooks(t *testing.T) {
	s := newSite(t, "sqlite")
	b := s.browser(t)
	b.signIn(s.adminID, s.secret)
	if p := b.get("/console/webhooks"); !strings.Contains(p.body, "No webhooks.") {
		t.Fatalf("webhooks before any: %d, want the empty state", p.status)
	}
	if p := b.get("/console/webhooks/7"); p.status != http.StatusNotFound || !strings.Contains(p.body, `id="page-error"`) {
		t.Errorf("a webhook that is not there: %d, want the API's 404", p.status)
	}
	id, secret := s.addClient(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermItemRead}, Scope: everything})
	reader := s.browser(t)
	reader.signIn(id, secret)
	if p := reader.get("/console/webhooks"); p.status != http.StatusForbidden || !strings.Contains(p.body, stockroom.MsgNoPermission) {
		t.Errorf("webhooks without permission 370: %d, want the service's 403", p.status)
	}
}
