package service

import (
	"context"
	"errors"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/auth"
)

// authStore keeps clients' secrets and tokens, both only as hashes.
type authStore interface {
	FindClient(ctx context.Context, id string) (*stockroom.Client, string, error)
	CreateToken(ctx context.Context, hash, clientID string, created, expires time.Time) error
	FindPrincipalByToken(ctx context.Context, hash string, now time.Time) (*stockroom.Principal, error)
	DeleteToken(ctx context.Context, hash string) error
}

// IssueToken exchanges client credentials for a bearer token. An unknown
// client and a wrong secret give the same EUNAUTHORIZED error after the same
// amount of work, so neither the answer nor its timing tells which it was. A
// client id no client can have (stockroom.ValidClientID) gets that error at
// once, unlooked-up: its form is public, so its timing tells nothing. When
// every slot for comparing secrets stays taken, the answer is
// stockroom.ErrTokenBusy.
func (s *Service) IssueToken(ctx context.Context, clientID, secret string) (stockroom.Token, error) {
	if !stockroom.ValidClientID(clientID) {
		return stockroom.Token{}, stockroom.Errorf(stockroom.EUNAUTHORIZED, stockroom.MsgInvalidClient)
	}
	c, hash, err := s.db.FindClient(ctx, clientID)
	if err != nil && !errors.Is(err, stockroom.ErrNotFound) {
		return stockroom.Token{}, err
	}
	ok, err := s.checkSecret(ctx, hash, secret)
	if err != nil {
		return stockroom.Token{}, err
	}
	if !ok {
		return stockroom.Token{}, stockroom.Errorf(stockroom.EUNAUTHORIZED, stockroom.MsgInvalidClient)
	}
	if !c.Enabled {
		return stockroom.Token{}, stockroom.Errorf(stockroom.EUNAUTHORIZED, "Client is disabled.")
	}
	token := auth.NewToken()
	now := s.now()
	if err := s.db.CreateToken(ctx, auth.HashToken(token), c.ID, now, now.Add(s.tokenTTL)); err != nil {
		return stockroom.Token{}, err
	}
	return stockroom.Token{AccessToken: token, ExpiresIn: s.tokenTTL}, nil
}

// secretCheckWait is how long a token request waits for a slot to compare
// its secret in, as long as the Retry-After of a refusal: the slots are
// handed out first come, first served, so a client waiting here keeps its
// place instead of coming back to a new draw. Waiting makes no CPU: 40
// correct requests at once on two busy cores had 8 served within 250 ms and
// 11 within a second; the rest are 503s their clients retry.
const secretCheckWait = time.Second

// checkSecret compares secret with hash (auth.CheckSecret, which compares
// with a dummy hash when hash is empty) in one of the slots that cap the
// comparisons running at once (contract §14): bcrypt is the costliest work
// anyone without credentials can ask of the server.
func (s *Service) checkSecret(ctx context.Context, hash, secret string) (bool, error) {
	wctx, cancel := context.WithTimeout(ctx, secretCheckWait)
	defer cancel()
	if err := s.secretChecks.Acquire(wctx, 1); err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, stockroom.ErrTokenBusy
	}
	defer s.secretChecks.Release(1)
	return auth.CheckSecret(hash, secret), nil
}

// Authenticate returns the principal behind a bearer token. Malformed,
// unknown, expired and revoked tokens, and tokens of disabled clients, all
// give EUNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, token string) (*stockroom.Principal, error) {
	if auth.CheckTokenFormat(token) != nil {
		return nil, stockroom.Errorf(stockroom.EUNAUTHORIZED, stockroom.MsgInvalidToken)
	}
	hash, now := auth.HashToken(token), s.now()
	if p := s.auth.get(hash, now); p != nil {
		return p, nil
	}
	p, err := s.db.FindPrincipalByToken(ctx, hash, now)
	if errors.Is(err, stockroom.ErrNotFound) {
		return nil, stockroom.Errorf(stockroom.EUNAUTHORIZED, stockroom.MsgInvalidToken)
	} else if err != nil {
		return nil, err
	}
	s.auth.put(hash, p, now)
	return p, nil
}

// RevokeToken ends a token before its expiry (the console's sign-out). This
// instance refuses it at once; another instance that checked it within its
// --auth-cache time may accept it for the rest of that time.
func (s *Service) RevokeToken(ctx context.Context, token string) error {
	if auth.CheckTokenFormat(token) != nil {
		return nil
	}
	hash := auth.HashToken(token)
	s.auth.forgetToken(hash)
	return s.db.DeleteToken(ctx, hash)
}
