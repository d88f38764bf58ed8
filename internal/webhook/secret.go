package webhook

import (
	"crypto/rand"
	"encoding/base64"
)

// SecretPrefix begins every webhook secret, so that one found in a log or a
// repository is recognisable for what it is, and is never mistaken for a
// client secret.
const SecretPrefix = "whsec_"

// NewSecret returns a fresh signing secret for a subscription: SecretPrefix
// and 32 random bytes in base64url, shown to the caller once, on POST /Webhook
// and on PUT with rotateSecret.
//
// Storage: unlike a client secret, which the server only checks and so keeps
// as a bcrypt hash, a webhook secret is a key the server signs with on every
// delivery, so it must be kept recoverably. Keep it as-is in its column of the
// subscriptions table, as Stripe, GitHub and Shopify do with theirs, and
// never return it from GET, write it to a log or put it in an error. Encrypting
// it with a server key was weighed and left out: it would protect only a copy
// of the database taken without the key (a backup), which already holds every
// event a secret could be used to forge; it would add a key to configure,
// share between instances and rotate; and a leaked secret is remedied by
// rotateSecret. Should encryption be wanted later, a prefix on the stored value
// (e.g. "enc1:") lets both forms live side by side while rows are rewritten.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms (Go 1.24+)
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(b)
}
