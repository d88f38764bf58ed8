// Package client is the Go SDK of the Stockroom inventory and item-catalog
// API. It turns every endpoint into a typed method, so that an integration
// program never builds URLs, signs requests or parses error bodies itself.
//
// The client takes care of what every integration would otherwise have to get
// right on its own:
//
//   - Tokens: it exchanges the client id and secret for a bearer token on
//     first use, renews it shortly before it expires and once more when the
//     server answers 401, and shares one token request among concurrent
//     callers.
//   - Rate limits: a 429 is retried after the server's Retry-After, as long
//     as the total wait stays within [WithMaxRateLimitWait].
//   - Safe retries: every POST carries an Idempotency-Key that stays the same
//     when the request is retried after a network error or a 503, so a
//     receipt or an issue is applied exactly once. [WithIdempotencyKey] sets
//     the key yourself, for example to derive it from your own document
//     number.
//   - Exact quantities: units, weights and prices are [stockroom.Units],
//     exact decimals with up to six digits after the point, never float64:
//     stockroom.Whole(500), stockroom.MustParseUnits("12.5").
//   - Errors: a failure the server explains is an [*Error] carrying the
//     contract's error object, for errors.As.
//   - Lists: each List method returns one [Page]; the method of the same name
//     without "List" (Items, Lots, ...) is an iterator over every page, and
//     the Changes methods (ItemChanges, StockLevelChanges, ...) implement
//     incremental sync with modifiedSince.
//
// # Quickstart
//
// The package's examples are the quickstart, compiled and run against a
// real server by the package's tests: [Example] connects, creates an item,
// receives stock and reads its level; [ExampleClient_Move],
// [ExampleClient_Issue], [ExampleClient_Lots] (every page),
// [ExampleClient_StockLevelChanges] (incremental sync), [ExampleError] (a
// refusal, told apart with errors.As) and [ExampleVerifyWebhook] (a webhook
// receiver) go on from there.
//
// Every request asks the server to refuse fields it does not know
// (Prefer: handling=strict), so a field the SDK and the server disagree on
// is an error, never a value silently dropped.
//
// Fields that are optional in an update are pointers; Go's new(expr) makes
// them short: client.ItemInput{ShortID: "BOLT-M8", Description: new("Hex bolt M8x45")}.
//
// A Client is safe for concurrent use by many goroutines; create one per set
// of credentials and share it. Deadlines and cancellation come from the
// context passed to each call.
package client
