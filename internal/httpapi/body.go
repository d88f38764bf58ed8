package httpapi

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/jsonbody"
)

func isTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

// bodyError is the refusal of a body that could not be read.
func bodyError(err error) error {
	if isTooLarge(err) {
		return tooLarge()
	}
	return stockroom.Errorf(stockroom.EBADREQUEST, "The request body could not be read.")
}

func tooLarge() error {
	return stockroom.Errorf(stockroom.ETOOLARGE, "The request body is larger than 1 MiB.")
}

// A refused body is read to its end before the answer, within these bounds:
// a client that sends its whole request before it reads, as many do, then
// finds the 413 instead of a connection reset under its feet, and an endless
// upload still cannot hold the server.
const (
	discardMaxBytes = 16 << 20
	discardMaxTime  = 5 * time.Second
)

// discardBody reads what is left of r's body and drops it. A client that
// asked whether to send a body (Expect: 100-continue) and has not been told
// to is not asked now: it sends nothing.
func discardBody(r *http.Request) {
	info := infoFrom(r.Context())
	if info.body == nil || info.conn == nil {
		return
	}
	if r.ContentLength > MaxBodyBytes && strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		return
	}
	_ = info.conn.SetReadDeadline(time.Now().Add(discardMaxTime))
	_, _ = io.CopyN(io.Discard, info.body, discardMaxBytes)
}

// readJSON reads r's body as JSON text, within the size limit: its bytes,
// or why they cannot be read (a Content-Type that is not JSON, a body too
// large). An optional body that is empty stands for an empty object.
func readJSON(r *http.Request, optional bool) ([]byte, error) {
	if optional && r.ContentLength == 0 {
		return []byte("{}"), nil
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return nil, stockroom.Errorf(stockroom.EBADREQUEST, "The request body must be JSON (Content-Type: application/json).")
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, bodyError(err)
	}
	return body, nil
}

// decodeBody decodes body, read by readJSON (else readErr, why it could not
// be), into dst (see jsonbody.Decode). It returns the body's problems as a
// validation error, or why it cannot be read (bad_request, 413). The body's
// unknown fields are kept in the request's info, for the answer to name
// (Stockroom-Ignored-Fields, contract §1); a strict request's are problems
// instead.
func decodeBody(r *http.Request, body []byte, readErr error, dst any) error {
	if readErr != nil {
		return readErr
	}
	res, err := jsonbody.Decode(body, dst)
	if err != nil {
		return err
	}
	return infoFrom(r.Context()).unknownFields(res, "")
}

// unknownFields takes the unknown fields of res, a body decoded at path at
// of the request's body ("" for the whole of it, "operations[3]." for an
// operation of a batch): kept for the answer to name, or, for a strict
// request, added to res's problems as they are (unprefixed: a batch's
// operation is refused as its endpoint would refuse it). It returns res's
// problems as a validation error.
func (info *reqInfo) unknownFields(res jsonbody.Result, at string) error {
	if !info.strict {
		for _, path := range res.Unknown {
			info.ignored = append(info.ignored, at+path)
		}
		return res.Problems.Err()
	}
	info.strictApplied = true
	if info.noun != "" {
		for i, path := range res.Unknown {
			if !strings.ContainsAny(path, ".[") {
				res.UnknownOf[i] = info.noun
			}
		}
	}
	res.Strict(&res.Problems)
	return res.Problems.Err()
}

// prefersStrict reports whether a request's Prefer headers (RFC 7240: a
// comma-separated list of preferences, each maybe with parameters after a
// semicolon) ask for handling=strict.
func prefersStrict(values []string) bool {
	for _, v := range values {
		for pref := range strings.SplitSeq(v, ",") {
			name, _, _ := strings.Cut(pref, ";")
			key, val, _ := strings.Cut(strings.TrimSpace(name), "=")
			if strings.EqualFold(strings.TrimSpace(key), "handling") &&
				strings.EqualFold(strings.Trim(strings.TrimSpace(val), `"`), "strict") {
				return true
			}
		}
	}
	return false
}

// maxIgnoredHeader bounds Stockroom-Ignored-Fields: a body may name up to
// stockroom.MaxProblemFields unknown fields, which no header should carry.
const maxIgnoredHeader = 4 << 10

// ignoredHeader is the Stockroom-Ignored-Fields value for the unknown
// fields' paths: comma-separated, as sent, but for a name's bytes that
// would break the list or the header (commas, controls, non-ASCII), which
// are percent-encoded; past maxIgnoredHeader bytes it ends with "…".
func ignoredHeader(paths []string) string {
	var b strings.Builder
	for i, p := range paths {
		var f strings.Builder
		for j := range len(p) {
			if c := p[j]; c < 0x21 || c > 0x7e || c == ',' || c == '%' {
				fmt.Fprintf(&f, "%%%02X", c)
			} else {
				f.WriteByte(c)
			}
		}
		if b.Len()+f.Len()+2+len(", …") > maxIgnoredHeader {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.String())
	}
	return b.String()
}
