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
}

// IssueToken exchanges client credentials for a bearer token. An unknown
// client and a wrong secret give the same EUNAUTHORIZED error after the same
// amount of work, so neither the answer nor its timing tells which it was.
func (s *Service) IssueToken(ctx context.Context, clientID, secret string) (stockroom.Token, error) {
	c, hash, err := s.db.FindClient(ctx, clientID)
	if err != nil && !errors.Is(err, stockroom.ErrNotFound) {
		return stockroom.Token{}, err
	}
	if !auth.CheckSecret(hash, secret) {
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
