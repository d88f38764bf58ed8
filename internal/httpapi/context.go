package httpapi

import (
	"context"
	"io"
	"net/http"

	"github.com/stockroom/stockroom"
)

// reqInfo is filled in as a request passes the layers, and read by the access
// log when it returns.
type reqInfo struct {
	id        string
	route     string
	principal *stockroom.Principal
	clientID  string // also set on token requests, before any principal exists
	// key is the request's Idempotency-Key, keyErr why it cannot be used.
	key    *stockroom.IdempotencyKey
	keyErr error
	// locate is the Location of what the request creates, read from its
	// answer's body: for its first answer and for every replay alike.
	locate locator
	// inputErr is the refusal of the checks every route shares (the body's
	// encoding, the parameters' text), for the service to report in its
	// place in the order of checks.
	inputErr error
	// ignored are the fields of the body that the request's type does not
	// have, as sent (jsonbody.Result.Unknown): the fields it ignored.
	ignored []string
	// strict: the request asked for Prefer: handling=strict (contract §1);
	// strictApplied: a body was read so, and the answer says it was.
	strict, strictApplied bool
	// noun names the resource a body describes where its type serves
	// several (a party: Customer or Vendor), for a strict refusal.
	noun string
	// body is the request body as the server received it, beneath the size
	// limit, and conn controls its connection: a refused body is drained
	// through them.
	body io.Reader
	conn *http.ResponseController
	// clientGone: the request failed because its client hung up; the log
	// and the metrics record it as 499, not as the 5xx it was answered with.
	clientGone bool
}

type infoKey struct{}

func withInfo(ctx context.Context, info *reqInfo) context.Context {
	return context.WithValue(ctx, infoKey{}, info)
}

// infoFrom returns the request's info; a blank one outside the server.
func infoFrom(ctx context.Context) *reqInfo {
	if info, ok := ctx.Value(infoKey{}).(*reqInfo); ok {
		return info
	}
	return &reqInfo{}
}

// principalFrom returns the authenticated client of the request. Handlers of
// authenticated routes can rely on it being set.
func principalFrom(ctx context.Context) *stockroom.Principal {
	return infoFrom(ctx).principal
}
