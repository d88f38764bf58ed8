package httpapi_test

import (
	"encoding/json"
	"testing"

	"github.com/stockroom/stockroom"
)

// TestRoot: GET / needs no token and points to the documentation, the OpenAPI
// document and the API, each of which answers; other paths and methods on /
// are still the error object.
func TestRoot(t *testing.T) {
	a := newAPI(t, "sqlite")
	r := a.do(t, "GET", "/", nil)
	var body struct{ Name, Docs, OpenAPI, API string }
	if r.status != 200 || json.Unmarshal(r.body, &body) != nil {
		t.Fatalf("GET /: %d %s", r.status, r.body)
	}
	if body.Docs != "/docs" || body.OpenAPI != "/api/v1/openapi.json" || body.API != "/api/v1" {
		t.Fatalf("GET / points to %+v", body)
	}
	for _, path := range []string{body.Docs, body.OpenAPI} {
		if r := a.do(t, "GET", path, nil); r.status != 200 {
			t.Errorf("GET %s (from GET /): %d", path, r.status)
		}
	}
	wantError(t, a.do(t, "GET", "/nope", nil), 404, stockroom.ENOTFOUND)
	r = a.do(t, "POST", "/", nil)
	wantError(t, r, 405, stockroom.EMETHOD)
	if allow := r.header.Get("Allow"); allow != "GET, HEAD" {
		t.Errorf("POST /: Allow %q, want GET, HEAD", allow)
	}
}
