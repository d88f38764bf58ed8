package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/docs"
)

// TestDocumentAndDocsPage: the OpenAPI document and its page are public,
// and a path under /docs that is neither gets the error object.
func TestDocumentAndDocsPage(t *testing.T) {
	a := newAPI(t, "sqlite")
	r := a.do(t, "GET", "/api/v1/openapi.json", nil)
	var doc struct {
		OpenAPI string
		Paths   map[string]any
	}
	if r.status != 200 || json.Unmarshal(r.body, &doc) != nil || doc.OpenAPI != "3.1.0" || doc.Paths["/api/v1/Inventory/Receive"] == nil {
		t.Fatalf("GET /api/v1/openapi.json: %d %.200s", r.status, r.body)
	}
	r = a.do(t, "GET", "/docs", nil)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(r.body), `spec-url="/api/v1/openapi.json"`) || !strings.Contains(string(r.body), docs.BundlePath) {
		t.Fatalf("GET /docs: %d %s", r.status, r.body)
	}
	if r := a.do(t, "GET", docs.BundlePath, nil); r.status != 200 || len(r.body) < 100_000 {
		t.Fatalf("GET %s: %d, %d bytes", docs.BundlePath, r.status, len(r.body))
	}
	wantError(t, a.do(t, "GET", "/docs/nope", nil), 404, stockroom.ENOTFOUND)
}
