package httpapi

import (
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/stockroom/stockroom"
)

// authenticate reads the bearer token of a request and returns its principal.
func (s *Server) authenticate(r *http.Request) (*stockroom.Principal, error) {
	if err := authorizationOnce(r); err != nil {
		return nil, err
	}
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if h == "" || !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return nil, stockroom.Errorf(stockroom.EUNAUTHORIZED, "A bearer token is required (Authorization: Bearer <token>).")
	}
	return s.svc.Authenticate(r.Context(), strings.TrimSpace(token))
}

// authorizationOnce refuses a request with more than one Authorization
// header: which one counts would be a guess, and a proxy or a client that adds
// its own must not have its credentials silently taken or ignored.
func authorizationOnce(r *http.Request) error {
	if len(r.Header.Values("Authorization")) > 1 {
		return stockroom.Errorf(stockroom.EUNAUTHORIZED, "The Authorization header must be given once.")
	}
	return nil
}

// tokenRequest is a parsed client-credentials token request.
type tokenRequest struct {
	clientID string
	secret   string
	basic    bool // credentials came as HTTP Basic
}

// parseTokenRequest reads a token request as RFC 6749 §4.4 and the contract
// describe it: form fields grant_type, client_id and client_secret, with the
// credentials optionally in HTTP Basic instead. Only the body is read, never
// the query string, so secrets do not end up in access logs.
func parseTokenRequest(r *http.Request) (tokenRequest, error) {
	var tr tokenRequest
	if err := authorizationOnce(r); err != nil {
		return tr, err
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		return tr, stockroom.Errorf(stockroom.EBADREQUEST, "The token request must be form-encoded (Content-Type: application/x-www-form-urlencoded).")
	}
	if err := r.ParseForm(); err != nil {
		if isTooLarge(err) {
			return tr, tooLarge()
		}
		return tr, stockroom.Errorf(stockroom.EBADREQUEST, "The token request body is not a valid form.")
	}
	form := r.PostForm
	for _, name := range []string{"grant_type", "client_id", "client_secret"} {
		if len(form[name]) > 1 {
			return tr, stockroom.Errorf(stockroom.EBADREQUEST, "%s must be given once.", name)
		}
	}
	switch gt := form.Get("grant_type"); gt {
	case "":
		return tr, stockroom.Errorf(stockroom.EBADREQUEST, "grant_type is required.")
	case "client_credentials":
	default:
		return tr, stockroom.Errorf(stockroom.EBADREQUEST, "grant_type must be client_credentials.")
	}
	tr.clientID, tr.secret = form.Get("client_id"), form.Get("client_secret")
	if h := r.Header.Get("Authorization"); h != "" {
		id, secret, ok := r.BasicAuth()
		if !ok {
			return tr, stockroom.Errorf(stockroom.EBADREQUEST, "The Authorization header must hold HTTP Basic client credentials.")
		}
		// RFC 6749 §2.3.1: both parts are form-encoded before Basic encoding.
		id, secret = formUnescape(id), formUnescape(secret)
		if (tr.clientID != "" && tr.clientID != id) || (tr.secret != "" && tr.secret != secret) {
			return tr, stockroom.Errorf(stockroom.EBADREQUEST, "Client credentials differ between the form and the Authorization header.")
		}
		tr.clientID, tr.secret, tr.basic = id, secret, true
	}
	// A client_id that is not text is not a client's id either: the service
	// refuses it as it does any malformed one, with a 401.
	switch {
	case !isText(tr.secret):
		return tr, stockroom.Errorf(stockroom.EBADREQUEST, "client_secret %s.", msgNotText)
	case tr.clientID == "":
		return tr, stockroom.Errorf(stockroom.EBADREQUEST, "client_id is required.")
	case tr.secret == "":
		return tr, stockroom.Errorf(stockroom.EBADREQUEST, "client_secret is required.")
	}
	return tr, nil
}

func formUnescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// tokenResponse is the body of a successful token request.
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

// malformedClientID stands in the access log for a client_id no client can
// have, which is never logged as sent (contract §14): it may be of any
// length, and may be a secret pasted into the wrong field.
const malformedClientID = "(malformed)"

// handleToken serves POST /Token. Besides the address's budget, spent by
// every request (authorize), a client id's failures from this address have
// a budget of their own, checked before the secret is and charged only when
// the request fails: wrong secrets sent from elsewhere never refuse a
// correct one (contract §14).
func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) error {
	tr, err := parseTokenRequest(r)
	if err != nil {
		if stockroom.ErrorCode(err) == stockroom.EUNAUTHORIZED {
			w.Header().Set("WWW-Authenticate", `Basic realm="stockroom"`)
		}
		return err
	}
	// Every JSON answer says no-store; this is for HTTP/1.0 caches.
	w.Header().Set("Pragma", "no-cache")
	// The key of the failure budget; none for a malformed id.
	failures := ""
	if stockroom.ValidClientID(tr.clientID) {
		infoFrom(r.Context()).clientID = tr.clientID
		failures = tr.clientID + "@" + s.remoteAddr(r)
		if err := s.checkFailures(r, failures); err != nil {
			return err
		}
	} else {
		infoFrom(r.Context()).clientID = malformedClientID
	}
	tok, err := s.svc.IssueToken(r.Context(), tr.clientID, tr.secret)
	if err != nil {
		if stockroom.ErrorCode(err) == stockroom.EUNAUTHORIZED {
			if failures != "" {
				s.chargeFailure(r, failures)
			}
			// The token endpoint authenticates clients, with HTTP Basic or
			// form fields (RFC 6749 §2.3.1), never with a bearer token.
			w.Header().Set("WWW-Authenticate", `Basic realm="stockroom"`)
		}
		return err
	}
	writeJSON(w, http.StatusOK, tokenResponse{
		AccessToken: tok.AccessToken,
		TokenType:   "bearer",
		ExpiresIn:   int64(tok.ExpiresIn.Seconds()),
	})
	return nil
}
