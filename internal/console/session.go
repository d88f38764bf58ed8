package console

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// cookieName holds the session: the client's access token itself, so that
// a session is valid exactly as long as its token (expiry, revocation, a
// disabled client) on every instance, with no session table. The cookie is
// HttpOnly (no script reads it), SameSite=Strict (no other site's page
// sends it) and Path=/console (the API never receives it).
const cookieName = "stockroom_console"

// session is the signed-in client of a request.
type session struct {
	token string
	csrf  string
}

// sessionHandler is a console handler that needs a session.
type sessionHandler func(w http.ResponseWriter, r *http.Request, s *session)

// csrfToken is the form token of a session: a hash of its access token,
// which only a page of the session can know (the cookie is HttpOnly), and
// which every instance computes alike.
func csrfToken(token string) string {
	sum := sha256.Sum256([]byte("stockroom console csrf\x00" + token))
	return hex.EncodeToString(sum[:16])
}

// session reads the session of a request and, for a POST, checks that it
// came from a console page: its Origin (or Referer) is this server, and
// its form carries the session's token. Without a session a page asks to
// sign in; a request failing the checks is 403, changing nothing.
func (h *Handler) session(next sessionHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(cookieName)
		if err != nil || c.Value == "" {
			h.toSignIn(w, r)
			return
		}
		s := &session{token: c.Value, csrf: csrfToken(c.Value)}
		if r.Method == http.MethodPost {
			if !sameOrigin(r) {
				h.forbidden(w, r, "This form was not sent from a page of this console (its Origin is another site's).")
				return
			}
			given := r.PostFormValue("csrf")
			if subtle.ConstantTimeCompare([]byte(given), []byte(s.csrf)) != 1 {
				h.forbidden(w, r, "This form is missing its console token or has an old one; reload the page and send it again.")
				return
			}
		}
		next(w, r, s)
	})
}

// sameOrigin reports whether a POST came from this server's pages: its
// Origin, or when a browser sent none its Referer, names this host. A
// request with neither (not a browser's) rests on the form token alone.
func sameOrigin(r *http.Request) bool {
	from := r.Header.Get("Origin")
	if from == "" || from == "null" {
		from = r.Header.Get("Referer")
	}
	if from == "" {
		return r.Header.Get("Origin") == ""
	}
	u, err := url.Parse(from)
	return err == nil && u.Host == r.Host && (u.Scheme == "http" || u.Scheme == "https")
}

// toSignIn sends a request without a (valid) session to the sign-in page,
// which brings the reader back afterwards.
func (h *Handler) toSignIn(w http.ResponseWriter, r *http.Request) {
	clearCookie(w, r)
	next := r.URL.RequestURI()
	if r.Method != http.MethodGet || strings.HasPrefix(r.URL.Path, Prefix+"/live") {
		next = Prefix + "/"
	}
	http.Redirect(w, r, Prefix+"/signin?next="+url.QueryEscape(next), http.StatusSeeOther)
}

func (h *Handler) signInPage(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, "signin", &view{Title: "Sign in", Data: signInData{Next: safeNext(r.URL.Query().Get("next"))}})
}

type signInData struct {
	Next, ClientID, Error string
}

// signIn exchanges a client's id and secret for a token at POST /Token, as
// any client does (its failure budget, its messages), and keeps the token
// in the session cookie until the token expires.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	d := signInData{Next: safeNext(r.PostFormValue("next")), ClientID: strings.TrimSpace(r.PostFormValue("client_id"))}
	if !sameOrigin(r) {
		h.forbidden(w, r, "This form was not sent from a page of this console.")
		return
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {d.ClientID}, "client_secret": {r.PostFormValue("client_secret")}}
	ans := h.call(r, "", http.MethodPost, "/api/v1/Token", form)
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if ans.Status != http.StatusOK || json.Unmarshal(ans.Body, &tok) != nil || tok.AccessToken == "" {
		d.Error = ans.message()
		h.render(w, r, max(ans.Status, http.StatusBadRequest), "signin", &view{Title: "Sign in", Data: d})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: tok.AccessToken, Path: Prefix, HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, Expires: time.Now().Add(time.Duration(tok.ExpiresIn) * time.Second), MaxAge: int(tok.ExpiresIn)})
	http.Redirect(w, r, d.Next, http.StatusSeeOther)
}

// signOut revokes the session's token and forgets the session in this
// browser.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request, s *session) {
	if err := h.svc.RevokeToken(r.Context(), s.token); err != nil {
		h.logger.Error("console: sign-out could not revoke the token", "error", err)
	}
	clearCookie(w, r)
	http.Redirect(w, r, Prefix+"/signin", http.StatusSeeOther)
}

func clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: Prefix, HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: -1})
}

// safeNext keeps a return address inside the console, so that the sign-in
// page cannot be made to send anyone elsewhere.
func safeNext(next string) string {
	if !strings.HasPrefix(next, Prefix+"/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return Prefix + "/"
	}
	return next
}

// forbidden answers a request the console refuses itself (CSRF).
func (h *Handler) forbidden(w http.ResponseWriter, r *http.Request, msg string) {
	h.render(w, r, http.StatusForbidden, "error", &view{Title: "Refused", Error: msg})
}
