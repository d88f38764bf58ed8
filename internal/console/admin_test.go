package console_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

func TestConsoleAdministration(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *site) {
		id, secret := s.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{IDs: []int64{1}}})
		limited := s.browser(t)
		limited.signIn(id, secret)
		if p := limited.get("/console/admin"); p.status != http.StatusForbidden || !strings.Contains(p.body, stockroom.MsgNotAdministrator) || strings.Contains(p.body, s.adminID) {
			t.Fatalf("administration for a client of one warehouse: %d, want 403 showing no client", p.status)
		}
		if p := limited.post("/console/admin/warehouses", url.Values{"wid": {"7"}, "name": {"Seven"}}); p.status != http.StatusForbidden {
			t.Fatalf("add a warehouse as a client of one warehouse: %d, want 403", p.status)
		}
		if p := limited.post("/console/admin/clients/"+s.adminID, url.Values{"do": {"rotate"}}); p.status != http.StatusForbidden || strings.Contains(p.body, "client_secret=") {
			t.Fatalf("rotate the administrator's secret as a client of one warehouse: %d, want 403", p.status)
		}

		b := s.browser(t)
		b.signIn(s.adminID, s.secret)
		if p := b.post("/console/admin/warehouses", url.Values{"wid": {"7"}, "name": {"Seven"}}); p.status != http.StatusOK || !strings.Contains(p.body, "<td>7</td><td>Seven</td>") {
			t.Fatalf("add a warehouse: %d", p.status)
		}
		if p := b.post("/console/admin/reasons", url.Values{"code": {"77"}, "description": {"Shrinkage"}, "direction": {"sideways"}}); p.status != http.StatusBadRequest {
			t.Errorf("a reason code of no direction: %d, want 400", p.status)
		}
		p := b.post("/console/admin/clients", url.Values{"name": {"Scanner"}, "permissions": {"11,95"}, "warehouses": {"7"}, "owners": {"all"}})
		m := regexp.MustCompile(`Client (cl-[a-z0-9]+): client_secret=<code>([^<]+)</code>`).FindStringSubmatch(p.body)
		if p.status != http.StatusOK || m == nil {
			t.Fatalf("create a client: %d, no secret shown", p.status)
		}
		scanner := s.browser(t)
		scanner.signIn(m[1], m[2])
		if p := b.post("/console/admin/clients/"+m[1], url.Values{"do": {"rotate"}}); !strings.Contains(p.body, "client_secret=") {
			t.Fatal("rotate: no new secret shown")
		}
		if p := scanner.get("/console/levels"); p.status != http.StatusSeeOther {
			t.Errorf("the old secret's session after a rotation: %d, want 303 to sign in", p.status)
		}
		if p := b.post("/console/admin/clients/"+m[1], url.Values{"do": {"update"}, "permissions": {"11"}, "warehouses": {"9"}, "owners": {"all"}}); p.status != http.StatusBadRequest {
			t.Errorf("a client scoped to a warehouse that is not there: %d, want the service's 400", p.status)
		}
		if p := b.post("/console/admin/clients/"+m[1], url.Values{"do": {"disable"}}); !strings.Contains(p.body, "disabled") {
			t.Errorf("disable: %d", p.status)
		}
	})
}
