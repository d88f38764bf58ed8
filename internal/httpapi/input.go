package httpapi

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/stockroom/stockroom"
)

// Text the service takes from a request must be UTF-8 without NUL: neither
// engine would treat other bytes alike (PostgreSQL refuses them outright,
// SQLite stores and compares them as given), so they are refused before any
// handler sees them.
const msgNotText = "must be UTF-8 text without NUL characters"

// isText reports whether s is text the service can store and compare.
func isText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// textName is a parameter's name fit to be a key of the error's details.
func textName(name string) string {
	return strings.ToValidUTF8(name, "\uFFFD")
}

// checkInput applies the checks every route shares once authorization has
// passed, in the contract's order: the body's encoding (part of reading the
// body), then the text of path and query parameters (part of validation).
func checkInput(r *http.Request, rt route) error {
	if err := checkContentEncoding(r); err != nil {
		return err
	}
	var v stockroom.Validation
	for _, name := range wildcards(rt.pattern) {
		if !isText(r.PathValue(name)) {
			v.Add(name, msgNotText)
		}
	}
	// Public routes read no query parameters (the token request is read
	// from its body only), so theirs are not checked.
	if !rt.public {
		vals, _ := url.ParseQuery(r.URL.RawQuery) // a malformed query is the handler's 400
		for name, values := range vals {
			ok := isText(name)
			for _, val := range values {
				ok = ok && isText(val)
			}
			if !ok {
				v.Add(textName(name), msgNotText)
			}
		}
	}
	return v.Err()
}

// checkContentEncoding refuses a POST or PUT body in an encoding the server
// does not decode: read as plain, a compressed body would be garbage.
func checkContentEncoding(r *http.Request) error {
	if r.ContentLength == 0 || (r.Method != http.MethodPost && r.Method != http.MethodPut) {
		return nil
	}
	for _, h := range r.Header.Values("Content-Encoding") {
		for coding := range strings.SplitSeq(h, ",") {
			if c := strings.TrimSpace(coding); c != "" && !strings.EqualFold(c, "identity") {
				return stockroom.Errorf(stockroom.EUNSUPPORTED, "Content-Encoding %q is not supported; send the body unencoded.", textName(c))
			}
		}
	}
	return nil
}

// wildcards returns the names of the {wildcards} of a route pattern.
func wildcards(pattern string) []string {
	var names []string
	for seg := range strings.SplitSeq(pattern, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			names = append(names, strings.TrimSuffix(strings.Trim(seg, "{}"), "..."))
		}
	}
	return names
}
