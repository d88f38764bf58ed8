package client

import (
	"time"

	"github.com/stockroom/stockroom"
)

// WebhookSignatureHeader is the header a webhook delivery carries its
// signature in, for a receiver to pass to VerifyWebhook.
const WebhookSignatureHeader = stockroom.WebhookSignatureHeader

// VerifyWebhook checks that a webhook delivery came from Stockroom and was
// signed within the last five minutes: header is the Stockroom-Signature
// header, body the request body exactly as received (before any JSON
// decoding), secret the one the subscription was created or rotated with. Act
// on a delivery only when it returns nil. Its error wraps
// stockroom.ErrWebhookHeader, stockroom.ErrWebhookSignature or
// stockroom.ErrWebhookTimestamp, for errors.Is; a receiver answers each of them
// with a 4xx, and Stockroom retries the delivery later.
func VerifyWebhook(secret, header string, body []byte) error {
	return stockroom.VerifyWebhookSignature(secret, header, body, time.Now(), stockroom.DefaultWebhookTolerance)
}

// VerifyWebhookAt is VerifyWebhook with the receiver's clock and the
// tolerance given: for a receiver whose clock is known to drift, or one that
// verifies deliveries it queued earlier at the time they arrived. A tolerance
// of zero or less means stockroom.DefaultWebhookTolerance.
func VerifyWebhookAt(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	return stockroom.VerifyWebhookSignature(secret, header, body, now, tolerance)
}
