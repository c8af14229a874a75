package service

import (
	"context"
	"fmt"
)

// Mail of each message (issue 17: talk is "never a mail of its own
// unless the player asks for it"). The choice is a seat's, not a
// player's: talk is per game, and a player may want every word of the
// deal-making at one table and none of the chatter at another. It is
// kept beside the seat's mark (store.TalkStore.SetTalkMail), so neither
// choosing nor posting writes the game item. A seat that chose it is
// mailed, for each message it may read, the talk since its last mail
// (which is that message, unless it was away from the board), and its
// mark moves on: the next turn mail does not tell it again.

// TalkMailOn tells whether seat of rec asked to be mailed each message;
// false where the service keeps no talk.
func (s *Service) TalkMailOn(ctx context.Context, rec *Record, seat int) (bool, error) {
	if s.talk == nil || seat < 0 || seat >= len(rec.Seats) {
		return false, nil
	}
	on, err := s.talk.TalkMail(ctx, rec.ID, seat)
	if err != nil {
		return false, fmt.Errorf("talk mail of game %s seat %d: %w", rec.ID, seat, err)
	}
	return on, nil
}

// SetTalkMail records seat's choice to be mailed each message (on) or
// only in its next mail or digest (off, the default).
func (s *Service) SetTalkMail(ctx context.Context, rec *Record, seat int, on bool) error {
	ts, err := s.talkStore()
	if err != nil {
		return err
	}
	if seat < 0 || seat >= len(rec.Seats) {
		return Fail(CodeForbidden, fmt.Errorf("talk mail for seat %d of %d", seat, len(rec.Seats)))
	}
	if err := ts.SetTalkMail(ctx, rec.ID, seat, on); err != nil {
		return fmt.Errorf("talk mail of game %s seat %d: %w", rec.ID, seat, err)
	}
	s.log.InfoContext(ctx, "talk mail chosen", "game", rec.ID, "seat", seat, "on", on)
	return nil
}

// TalkMailSeats are the seats of rec to mail the message of key on its
// own: those that asked for it and may read it, its author aside. None
// when the message is gone or hidden.
func (s *Service) TalkMailSeats(ctx context.Context, rec *Record, key string) ([]int, error) {
	if s.talk == nil || key == "" || len(key) > maxTalkKey {
		return nil, nil
	}
	ms, err := s.talk.TalkBefore(ctx, rec.ID, key+"~", 1)
	if err != nil {
		return nil, fmt.Errorf("talk mail of game %s: %w", rec.ID, err)
	}
	if len(ms) == 0 || ms[0].Key != key || ms[0].Hidden {
		return nil, nil
	}
	var seats []int
	for seat := range rec.Seats {
		if l, ok := lineFor(ms[0], TalkReader{Seat: seat}); !ok || l.Mine || !rec.Seats[seat].Accepted {
			continue
		}
		on, err := s.TalkMailOn(ctx, rec, seat)
		if err != nil {
			return nil, err
		}
		if on {
			seats = append(seats, seat)
		}
	}
	return seats, nil
}
