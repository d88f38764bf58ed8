package httpapi_test

import (
	"encoding/base64"
	"github.com/stockroom/stockroom/internal/testdb"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

func form(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func basic(id, secret string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id)+":"+url.QueryEscape(secret)))
}

func TestToken(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		t.Run("FormCredentials", func(t *testing.T) {
			r := a.postToken(t, form("grant_type", "client_credentials", "client_id", a.adminID, "client_secret", a.adminSecret))
			if r.status != 200 {
				t.Fatalf("status %d %s", r.status, r.body)
			}
			v := r.json(t)
			tok, _ := v["access_token"].(string)
			if len(tok) < 43 || v["token_type"] != "bearer" || v["expires_in"] != testTTL.Seconds() || len(v) != 3 {
				t.Fatalf("token body %s", r.body)
			}
			if r.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("Cache-Control %q, want no-store", r.header.Get("Cache-Control"))
			}
			if got := a.get(t, "/api/v1/Warehouse", tok); got.status != 200 {
				t.Fatalf("the issued token does not work: %d %s", got.status, got.body)
			}
		})
		t.Run("BasicCredentials", func(t *testing.T) {
			id, secret := a.addClient(t, service.NewClient{ID: "basic.client_1", Secret: "s3cret-with.~dots_and-dash",
				Permissions: []stockroom.Permission{11}, Scope: stockroom.Scope{All: true}})
			for _, authz := range []string{
				basic(id, secret), // form-encoded first, as RFC 6749 asks
				"Basic " + base64.StdEncoding.EncodeToString([]byte(id+":"+secret)), // as most clients send it
			} {
				r := a.postToken(t, form("grant_type", "client_credentials"), "Authorization", authz)
				if r.status != 200 {
					t.Fatalf("Basic %q: status %d %s", authz, r.status, r.body)
				}
			}
			// The same credentials in the form as well are fine; different ones are not.
			r := a.postToken(t, form("grant_type", "client_credentials", "client_id", id), "Authorization", basic(id, secret))
			if r.status != 200 {
				t.Fatalf("Basic plus the same form client_id: %d %s", r.status, r.body)
			}
			r = a.postToken(t, form("grant_type", "client_credentials", "client_id", a.adminID), "Authorization", basic(id, secret))
			wantError(t, r, 400, stockroom.EBADREQUEST)
			r = a.postToken(t, form("grant_type", "client_credentials"), "Authorization", basic(id, "wrong-secret-0000000"))
			wantError(t, r, 401, stockroom.EUNAUTHORIZED)
			if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic") {
				t.Fatalf("WWW-Authenticate %q after failed Basic credentials, want Basic", r.header.Get("WWW-Authenticate"))
			}
			// Form credentials are client authentication too: never a
			// bearer challenge from the token endpoint.
			r = a.postToken(t, form("grant_type", "client_credentials", "client_id", id, "client_secret", "wrong-secret-0000000"))
			wantError(t, r, 401, stockroom.EUNAUTHORIZED)
			if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic") {
				t.Fatalf("WWW-Authenticate %q after failed form credentials, want Basic", r.header.Get("WWW-Authenticate"))
			}
		})
		t.Run("BadRequests", func(t *testing.T) {
			good := []string{"grant_type", "client_credentials", "client_id", a.adminID, "client_secret", a.adminSecret}
			for name, tc := range map[string]struct {
				body, contentType string
			}{
				"MissingGrantType":  {form(good[2:]...).Encode(), "application/x-www-form-urlencoded"},
				"WrongGrantType":    {form(append([]string{"grant_type", "password"}, good[2:]...)...).Encode(), "application/x-www-form-urlencoded"},
				"MissingClientID":   {form(good[0], good[1], good[4], good[5]).Encode(), "application/x-www-form-urlencoded"},
				"MissingSecret":     {form(good[:4]...).Encode(), "application/x-www-form-urlencoded"},
				"RepeatedField":     {form(append(good, "client_id", "other")...).Encode(), "application/x-www-form-urlencoded"},
				"JSONBody":          {`{"grant_type":"client_credentials"}`, "application/json"},
				"NoContentType":     {form(good...).Encode(), ""},
				"MalformedForm":     {"grant_type=%zz", "application/x-www-form-urlencoded"},
				"CredentialsInURL?": {"", "application/x-www-form-urlencoded"},
			} {
				t.Run(name, func(t *testing.T) {
					path := "/api/v1/Token"
					if name == "CredentialsInURL?" {
						// Credentials in the query string are not read.
						path += "?" + form(good...).Encode()
					}
					r := a.do(t, "POST", path, strings.NewReader(tc.body), "Content-Type", tc.contentType)
					wantError(t, r, 400, stockroom.EBADREQUEST)
				})
			}
		})
		t.Run("WrongCredentialsAreOneAnswer", func(t *testing.T) {
			unknown := a.postToken(t, form("grant_type", "client_credentials", "client_id", "nobody", "client_secret", a.adminSecret))
			wrong := a.postToken(t, form("grant_type", "client_credentials", "client_id", a.adminID, "client_secret", "not-the-secret-000"))
			u, w := wantError(t, unknown, 401, stockroom.EUNAUTHORIZED), wantError(t, wrong, 401, stockroom.EUNAUTHORIZED)
			if u["message"] != w["message"] {
				t.Fatalf("unknown client says %q, wrong secret says %q: the answer tells which was wrong", u["message"], w["message"])
			}
		})
		t.Run("DisabledClient", func(t *testing.T) {
			id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{11}, Scope: stockroom.Scope{All: true}})
			tok := a.token(t, id, secret)
			if err := a.svc.SetClientEnabled(t.Context(), service.Operator, id, false); err != nil {
				t.Fatal(err)
			}
			wantError(t, a.get(t, "/api/v1/Warehouse", tok), 401, stockroom.EUNAUTHORIZED)
			wantError(t, a.postToken(t, form("grant_type", "client_credentials", "client_id", id, "client_secret", secret)), 401, stockroom.EUNAUTHORIZED)
			if err := a.svc.SetClientEnabled(t.Context(), service.Operator, id, true); err != nil {
				t.Fatal(err)
			}
			a.token(t, id, secret)
		})
		t.Run("RotatedSecret", func(t *testing.T) {
			id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{11}, Scope: stockroom.Scope{All: true}})
			tok := a.token(t, id, secret)
			newSecret, err := a.svc.RotateSecret(t.Context(), service.Operator, id)
			if err != nil {
				t.Fatal(err)
			}
			wantError(t, a.get(t, "/api/v1/Warehouse", tok), 401, stockroom.EUNAUTHORIZED)
			wantError(t, a.postToken(t, form("grant_type", "client_credentials", "client_id", id, "client_secret", secret)), 401, stockroom.EUNAUTHORIZED)
			if r := a.get(t, "/api/v1/Warehouse", a.token(t, id, newSecret)); r.status != 200 {
				t.Fatalf("new secret's token: %d", r.status)
			}
		})
		t.Run("Expiry", func(t *testing.T) {
			tok := a.token(t, a.adminID, a.adminSecret)
			a.advance(testTTL - time.Second)
			if r := a.get(t, "/api/v1/Warehouse", tok); r.status != 200 {
				t.Fatalf("token refused a second before expiry: %d", r.status)
			}
			a.advance(time.Second)
			wantError(t, a.get(t, "/api/v1/Warehouse", tok), 401, stockroom.EUNAUTHORIZED)
			a.token(t, a.adminID, a.adminSecret) // and a new one can be had
		})
		t.Run("OnlyPOST", func(t *testing.T) {
			wantError(t, a.do(t, "GET", "/api/v1/Token", nil), 405, stockroom.EMETHOD)
		})
		t.Run("BodyOver1MiB", func(t *testing.T) {
			big := "grant_type=client_credentials&pad=" + strings.Repeat("x", 1<<20)
			wantError(t, a.do(t, "POST", "/api/v1/Token", strings.NewReader(big), "Content-Type", "application/x-www-form-urlencoded"), 413, stockroom.ETOOLARGE)
		})
	})
}

func TestBearerAuthentication(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		for name, authz := range map[string]string{
			"Missing":         "",
			"WrongScheme":     "Basic " + tok,
			"EmptyToken":      "Bearer ",
			"Malformed":       "Bearer not-a-token",
			"Unknown":         "Bearer " + strings.Repeat("A", 43),
			"TokenWithSuffix": "Bearer " + tok + "x",
		} {
			t.Run(name, func(t *testing.T) {
				r := a.do(t, "GET", "/api/v1/Warehouse", nil, "Authorization", authz)
				wantError(t, r, 401, stockroom.EUNAUTHORIZED)
				if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
					t.Fatalf("WWW-Authenticate %q, want Bearer", r.header.Get("WWW-Authenticate"))
				}
			})
		}
		t.Run("SchemeIsCaseInsensitive", func(t *testing.T) {
			if r := a.do(t, "GET", "/api/v1/Warehouse", nil, "Authorization", "bearer "+tok); r.status != 200 {
				t.Fatalf("status %d", r.status)
			}
		})
	})
}

// TestAuthCache runs two instances on one database, each remembering checked
// tokens for a minute: a client disabled through one is refused by that one
// at once, and by the other once its cache entry ages out.
func TestAuthCache(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			db := testdb.MustOpen(t, engine)
			one := newAPIWith(t, db, service.Options{AuthCacheTTL: time.Minute})
			two := newAPIWith(t, db, service.Options{AuthCacheTTL: time.Minute})
			id, secret := one.addClient(t, service.NewClient{Permissions: []stockroom.Permission{11}, Scope: stockroom.Scope{All: true}})
			tok := one.token(t, id, secret)
			for _, a := range []*api{one, two} {
				if r := a.get(t, "/api/v1/Warehouse", tok); r.status != 200 {
					t.Fatalf("token refused: %d", r.status)
				}
			}
			if err := one.svc.SetClientEnabled(t.Context(), service.Operator, id, false); err != nil {
				t.Fatal(err)
			}
			wantError(t, one.get(t, "/api/v1/Warehouse", tok), 401, stockroom.EUNAUTHORIZED)
			if r := two.get(t, "/api/v1/Warehouse", tok); r.status != 200 {
				t.Fatalf("the other instance refused at once (%d): its cache is not in use", r.status)
			}
			two.advance(time.Minute)
			wantError(t, two.get(t, "/api/v1/Warehouse", tok), 401, stockroom.EUNAUTHORIZED)
		})
	}
}
