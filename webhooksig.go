package stockroom

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// WebhookSignatureHeader is the header of every webhook delivery that carries
// its signature (contract §12). The server writes it with SignWebhook and a
// receiver checks it with VerifyWebhookSignature, one copy of the scheme for
// both sides.
const WebhookSignatureHeader = "Stockroom-Signature"

// DefaultWebhookTolerance is how far a delivery's signed time may lie from the
// receiver's clock, either way, before VerifyWebhookSignature refuses it. It
// bounds how long a captured delivery can be replayed, and leaves room for
// clock skew and a delivery's own 10 s.
const DefaultWebhookTolerance = 5 * time.Minute

// maxWebhookSignatureHeader bounds the header a receiver parses, so that a
// forged header costs it little: a real one is about 80 bytes, and a few
// signatures at once (during a secret rotation) stay far below.
const maxWebhookSignatureHeader = 4096

// The refusals of VerifyWebhookSignature, for errors.Is. Each is returned
// wrapped with the detail that explains it.
var (
	// ErrWebhookHeader: the header is missing, too long, or lacks a t= or a
	// v1= part.
	ErrWebhookHeader = errors.New("malformed webhook signature header")
	// ErrWebhookSignature: no v1= value is the signature of this body with
	// this secret at the header's time.
	ErrWebhookSignature = errors.New("webhook signature does not match")
	// ErrWebhookTimestamp: the signature is right but its time lies outside
	// the tolerance, so the delivery may be a replay.
	ErrWebhookTimestamp = errors.New("webhook timestamp outside tolerance")
)

// SignWebhook returns the value of the Stockroom-Signature header for a
// delivery of body signed with secret at time t: "t=UNIXTIME,v1=HEX", where
// HEX is the lowercase hex HMAC-SHA256 of UNIXTIME + "." + body. Signing the
// time with the body lets a receiver refuse a replayed delivery.
func SignWebhook(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(webhookMAC(secret, ts, body))
}

// VerifyWebhookSignature checks a Stockroom-Signature header against the body
// as received and the subscription's secret: one of its v1= values must be the
// signature (compared in constant time), and its time must lie within
// tolerance of now, either way. A tolerance of zero or less means
// DefaultWebhookTolerance; there is deliberately no way to switch the check
// off. Parts other than t= and v1= are ignored, as are v1= values that are not
// hex, so the scheme can grow (a v2=, several signatures while a secret is
// rotated) without breaking receivers. The error wraps ErrWebhookHeader,
// ErrWebhookSignature or ErrWebhookTimestamp.
func VerifyWebhookSignature(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	ts, sigs, err := parseWebhookSignature(header)
	if err != nil {
		return err
	}
	want := webhookMAC(secret, ts, body)
	matched := false
	for _, sig := range sigs {
		// Every value is compared, so the time taken says nothing about which.
		matched = hmac.Equal(sig, want) || matched
	}
	if !matched {
		return fmt.Errorf("%w: none of %d v1 signatures is the body's with this secret", ErrWebhookSignature, len(sigs))
	}
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: t=%q is not a Unix time", ErrWebhookHeader, ts)
	}
	skew := now.Sub(time.Unix(unix, 0))
	if skew > tolerance || skew < -tolerance {
		return fmt.Errorf("%w: signed at %d, %s from now (tolerance %s)", ErrWebhookTimestamp, unix, skew.Round(time.Second), tolerance)
	}
	return nil
}

// parseWebhookSignature splits a header into its one t= value, kept as sent
// because it is what was signed, and its v1= signatures decoded from hex. Its
// cost is linear in the header, which it refuses beyond a few kilobytes.
func parseWebhookSignature(header string) (ts string, sigs [][]byte, err error) {
	if len(header) > maxWebhookSignatureHeader {
		return "", nil, fmt.Errorf("%w: %d bytes, more than %d", ErrWebhookHeader, len(header), maxWebhookSignatureHeader)
	}
	seenT := false
	for part := range strings.SplitSeq(header, ",") {
		key, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch key {
		case "t":
			if seenT {
				return "", nil, fmt.Errorf("%w: more than one t=", ErrWebhookHeader)
			}
			if !isDigits(value) {
				return "", nil, fmt.Errorf("%w: t=%.20q is not a Unix time", ErrWebhookHeader, value)
			}
			ts, seenT = value, true
		case "v1":
			if sig, err := hex.DecodeString(value); err == nil && len(sig) == sha256.Size {
				sigs = append(sigs, sig)
			}
		}
	}
	switch {
	case header == "":
		return "", nil, fmt.Errorf("%w: no %s header", ErrWebhookHeader, WebhookSignatureHeader)
	case !seenT:
		return "", nil, fmt.Errorf("%w: no t= part", ErrWebhookHeader)
	case len(sigs) == 0:
		return "", nil, fmt.Errorf("%w: no v1= signature of 64 hex digits", ErrWebhookHeader)
	}
	return ts, sigs, nil
}

// webhookMAC is the HMAC-SHA256 with secret of ts + "." + body.
func webhookMAC(secret, ts string, body []byte) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return mac.Sum(nil)
}

// isDigits reports whether s is 1 to 18 ASCII digits: a Unix time in seconds
// that fits an int64 with no sign, space or other spelling.
func isDigits(s string) bool {
	if s == "" || len(s) > 18 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
