package stockroom

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSignWebhook(t *testing.T) {
	// A vector worked out independently:
	//   printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
	got := SignWebhook("whsec_test", time.Unix(1700000000, 0), []byte(`{"a":1}`))
	want := "t=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789"
	if got != want {
		t.Fatalf("SignWebhook = %q, want %q", got, want)
	}
}

func TestVerifyWebhookSignature(t *testing.T) {
	const secret = "whsec_test"
	body := []byte(`{"id":"ev_1","type":"item.created"}`)
	signedAt := time.Unix(1700000000, 0)
	header := SignWebhook(secret, signedAt, body)
	sig := strings.TrimPrefix(header, "t=1700000000,v1=")
	other := SignWebhook("whsec_old", signedAt, body)
	otherSig := other[strings.Index(other, "v1=")+3:]

	tests := []struct {
		name   string
		secret string
		header string
		body   string
		now    time.Time
		want   error
	}{
		{"as signed", secret, header, string(body), signedAt, nil},
		{"receiver clock 5 minutes ahead", secret, header, string(body), signedAt.Add(5 * time.Minute), nil},
		{"receiver clock 5 minutes behind", secret, header, string(body), signedAt.Add(-5 * time.Minute), nil},
		{"extra parts and spaces", secret, "v0=abc, t=1700000000 , scheme=x,v1=" + sig + ",", string(body), signedAt, nil},
		{"several v1, one right", secret, "t=1700000000,v1=" + otherSig + ",v1=zz,v1=" + sig, string(body), signedAt, nil},
		{"body changed", secret, header, string(body) + " ", signedAt, ErrWebhookSignature},
		{"secret changed", "whsec_other", header, string(body), signedAt, ErrWebhookSignature},
		{"timestamp changed", secret, "t=1700000001,v1=" + sig, string(body), signedAt, ErrWebhookSignature},
		{"too old", secret, header, string(body), signedAt.Add(5*time.Minute + time.Second), ErrWebhookTimestamp},
		{"from the future", secret, header, string(body), signedAt.Add(-6 * time.Minute), ErrWebhookTimestamp},
		{"empty", secret, "", string(body), signedAt, ErrWebhookHeader},
		{"no t", secret, "v1=" + sig, string(body), signedAt, ErrWebhookHeader},
		{"no v1", secret, "t=1700000000", string(body), signedAt, ErrWebhookHeader},
		{"v1 not hex", secret, "t=1700000000,v1=xyz", string(body), signedAt, ErrWebhookHeader},
		{"two t", secret, "t=1700000000,t=1700000000,v1=" + sig, string(body), signedAt, ErrWebhookHeader},
		{"signed t", secret, "t=+1700000000,v1=" + sig, string(body), signedAt, ErrWebhookHeader},
		{"too long", secret, header + strings.Repeat(",x", 4096), string(body), signedAt, ErrWebhookHeader},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := VerifyWebhookSignature(tt.secret, tt.header, []byte(tt.body), tt.now, 0)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("VerifyWebhookSignature = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestVerifyWebhookSignatureTolerance(t *testing.T) {
	body := []byte("{}")
	signedAt := time.Unix(1700000000, 0)
	header := SignWebhook("s", signedAt, body)
	if err := VerifyWebhookSignature("s", header, body, signedAt.Add(time.Hour), 2*time.Hour); err != nil {
		t.Fatalf("an hour late within a 2 h tolerance: %v", err)
	}
	if err := VerifyWebhookSignature("s", header, body, signedAt.Add(time.Hour), time.Minute); !errors.Is(err, ErrWebhookTimestamp) {
		t.Fatalf("an hour late within a 1 min tolerance: %v, want ErrWebhookTimestamp", err)
	}
}

// FuzzParseWebhookSignature holds the parser to its promises for any header:
// no panic, work bounded by the header's length, nothing accepted that lacks a
// t= or a well-formed v1=, and a real signature still found among any extra
// parts that do not repeat t=.
func FuzzParseWebhookSignature(f *testing.F) {
	f.Add("t=1700000000,v1=00", "v0=1")
	f.Add("", ",,,")
	f.Add("t=,v1=", "t=1")
	f.Add(strings.Repeat("v1=", 100), "v1=zz")
	body := []byte(`{"a":1}`)
	signedAt := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, header, extra string) {
		ts, sigs, err := parseWebhookSignature(header)
		if err == nil {
			if !isDigits(ts) || len(sigs) == 0 || len(sigs) > len(header)/67 {
				t.Fatalf("parse(%q) = %q, %d signatures", header, ts, len(sigs))
			}
		}
		_ = VerifyWebhookSignature("s", header, body, signedAt, 0)

		full := SignWebhook("s", signedAt, body) + "," + extra
		err = VerifyWebhookSignature("s", full, body, signedAt, 0)
		tooLong := len(full) > maxWebhookSignatureHeader
		repeatsT := false
		for part := range strings.SplitSeq(extra, ",") {
			repeatsT = repeatsT || strings.HasPrefix(strings.TrimSpace(part), "t=") || strings.TrimSpace(part) == "t"
		}
		if (err == nil) != (!tooLong && !repeatsT) {
			t.Fatalf("a real signature with %q appended: %v", extra, err)
		}
	})
}
