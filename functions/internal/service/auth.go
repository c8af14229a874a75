package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pbmgames/pbm/infra/linksign"
)

// Token signs a link token.
func (s *Service) Token(p linksign.Purpose, game string, seat int, version int64, ttl time.Duration) (string, error) {
	t, err := s.keys.Sign(linksign.Claims{Purpose: p, Game: game, Seat: seat, Version: version, Expires: s.now().Add(ttl)})
	if err != nil {
		return "", fmt.Errorf("sign %s token: %w", p, err)
	}
	return t, nil
}

// Authorize checks a token for game and returns its claims. Only the
// purposes listed are accepted.
func (s *Service) Authorize(token, game string, purposes ...linksign.Purpose) (linksign.Claims, error) {
	if token == "" {
		return linksign.Claims{}, Fail(CodeUnauthorized, errors.New("no token"))
	}
	var last error
	for _, p := range purposes {
		c, err := s.keys.Verify(token, s.now(), linksign.Expect{Purpose: p, Game: game, AnySeat: true})
		if err == nil {
			return c, nil
		}
		last = err
		if !errors.Is(err, linksign.ErrWrongPurpose) {
			break
		}
	}
	return linksign.Claims{}, AsError(last)
}

// AuthorizeAndLoad is Authorize, then Load of game: the claims of the
// token, the game's record and version. While the keys are still to be
// read (Config.KeysPending: a Lambda's first request that needs them, a
// round trip to SSM, with a TLS handshake and a KMS decryption in AWS),
// the game is read at the same time, and its record is kept only once
// the token checks; afterwards the token is checked first, as it takes
// no request, and a token that fails it reads nothing.
func (s *Service) AuthorizeAndLoad(ctx context.Context, token, game string, purposes ...linksign.Purpose) (linksign.Claims, *Record, int64, error) {
	if token == "" || s.keysPending == nil || !s.keysPending() {
		c, err := s.Authorize(token, game, purposes...)
		if err != nil {
			return linksign.Claims{}, nil, 0, err
		}
		rec, ver, err := s.Load(ctx, game)
		return c, rec, ver, err
	}
	type loaded struct {
		rec *Record
		ver int64
		err error
	}
	read := make(chan loaded, 1)
	go func() {
		rec, ver, err := s.Load(ctx, game)
		read <- loaded{rec, ver, err}
	}()
	c, err := s.Authorize(token, game, purposes...)
	// The read is waited for even for a token that failed, and dropped:
	// no request is left half-done when the answer goes.
	l := <-read
	if err != nil {
		return linksign.Claims{}, nil, 0, err
	}
	return c, l.rec, l.ver, l.err
}

// HasSeat refuses a token tied to a seat the game does not have: a
// validly signed token can name any seat up to linksign.MaxSeat.
func (r *Record) HasSeat(c linksign.Claims) error {
	if c.Purpose != linksign.PurposeSeat && c.Purpose != linksign.PurposeInvite {
		return nil
	}
	if c.Seat < 0 || c.Seat >= len(r.Seats) {
		return Fail(CodeForbidden, fmt.Errorf("%s token for seat %d of %d", c.Purpose, c.Seat, len(r.Seats)))
	}
	return r.Seats[c.Seat].stillSeated()
}
