package service

import (
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
