package leagues

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// Who a league may mail (issue 25). Anyone can make a league, and anyone
// holding its invitation can add any address to it, so a league mails
// nobody on its maker's word alone:
//
//   - its organiser confirms their address from a mail (as for a game:
//     service.Confirmed, or this league's own confirmation link) before
//     any member is mailed or a season starts;
//   - a member is mailed only once they confirmed, from a mail to their
//     address, that they joined by their own hand; until then they are
//     Pending, get no letter and are seated nowhere;
//   - the mails that ask to confirm (LetterConfirm) are a fixed text that
//     carries none of the organiser's or members' words (no league name,
//     no names), and an address gets at most one a day
//     (service.AskToConfirm), whoever gives it and however often.
//
// The confirmation letters are the league item's own outbox, sent by the
// Post right after the request that decided them where the Post is at
// hand (the local run), else by the next sweep: the league item then
// wakes it.

// LetterConfirm, in the league item's outbox, asks the organiser
// (Letter.Member "") or a member who joined to confirm their address. An
// address that bounced, or unsubscribed from everything, gets none (the
// Post's rule for all letters but a round's table).
const LetterConfirm = "league-confirm"

// organiserReady tells whether l's organiser has confirmed their
// address: for this league, or for the service within
// service.Limits.ConfirmedFor (a game of theirs; a league made before
// confirmations, whose address a game confirmed).
func (s *Service) organiserReady(ctx context.Context, l *League) (bool, error) {
	if l.Confirmed {
		return true, nil
	}
	ok, err := s.games.Confirmed(ctx, l.Organiser.Email)
	if err != nil {
		return false, fmt.Errorf("league %s: %w", l.ID, err)
	}
	return ok, nil
}

// errUnconfirmed refuses what would mail the members of a league whose
// organiser has not confirmed their address.
var errUnconfirmed = &service.Error{Code: service.CodeWrongStatus,
	RU: "Сначала подтвердите свой адрес по ссылке из письма, которое мы вам отправили: до того лига никому не пишет.",
	EN: "First confirm your address from the link in the mail we sent you: until then the league mails no one."}

// confirmation is the letter asking who (the organiser: "", else a
// member's name) to confirm email, if the address may get one today
// (CodeTooMany if not). Counted before the league's write that queues
// it: a write that then fails leaves the day's mail unsent.
func (s *Service) confirmation(ctx context.Context, email, who string) (*Letter, error) {
	if !s.decides() {
		return nil, nil // no mail is sent here: none is kept, none counted
	}
	if err := s.games.AskToConfirm(ctx, email); err != nil {
		return nil, err
	}
	return &Letter{ID: fmt.Sprintf("confirm/%s/%d", who, s.now().UnixNano()), Kind: LetterConfirm, Member: who}, nil
}

// Confirm is the owner of an address confirming it from a league's
// confirmation mail (a token of purpose league-confirm): the organiser
// (member linksign.NoSeat), whose members who joined are then asked to
// confirm theirs, or the member of that index, who is mailed from then
// on. Confirming again changes nothing.
func (s *Service) Confirm(ctx context.Context, id string, member int) error {
	l, _, err := s.League(ctx, id)
	if err != nil {
		return err
	}
	if member != linksign.NoSeat {
		if member < 0 || member >= len(l.Members) {
			return service.Fail(service.CodeForbidden, fmt.Errorf("confirm member %d of %d", member, len(l.Members)))
		}
		err := s.updateLeague(ctx, id, func(l *League) error {
			if !l.Members[member].Pending {
				return errUnchanged
			}
			l.Members[member].Pending = false
			return nil
		})
		if err == nil {
			s.log.InfoContext(ctx, "league member confirmed", "league", id, "member", member)
		}
		return err
	}
	if err := s.games.ConfirmAddress(ctx, l.Organiser.Email); err != nil {
		return fmt.Errorf("league %s: %w", id, err)
	}
	// The members who joined before are asked now, each address once a
	// day at most.
	asked := map[string]*Letter{}
	for _, m := range l.Members {
		if m.Pending && m.Asked == 0 && m.Email != l.Organiser.Email {
			letter, err := s.confirmation(ctx, m.Email, m.Name)
			if e := service.AsError(err); e != nil && e.Code != service.CodeTooMany {
				return err
			}
			if letter != nil {
				asked[m.Name] = letter
			}
		}
	}
	err = s.updateLeague(ctx, id, func(l *League) error {
		if l.Confirmed && len(asked) == 0 {
			return errUnchanged
		}
		l.Confirmed = true
		s.confirmOwn(l)
		for i := range l.Members {
			if letter := asked[l.Members[i].Name]; letter != nil && l.Members[i].Asked == 0 {
				l.Members[i].Asked = s.now().Unix()
				l.Outbox = append(l.Outbox, *letter)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "league organiser confirmed", "league", id, "members_asked", len(asked))
	s.drainLater(ctx, id)
	return nil
}

// confirmOwn confirms the organiser's own membership once their address
// is confirmed: they joined their own league.
func (s *Service) confirmOwn(l *League) {
	for i := range l.Members {
		if l.Members[i].Email == l.Organiser.Email {
			l.Members[i].Pending = false
		}
	}
}

// AskAgain sends the confirmation mail again: the organiser's (member
// linksign.NoSeat) or a pending member's, within the one a day an
// address may get (CodeTooMany past it). A member's waits for the
// organiser's confirmation.
func (s *Service) AskAgain(ctx context.Context, id string, member int) error {
	l, _, err := s.League(ctx, id)
	if err != nil {
		return err
	}
	email, who := l.Organiser.Email, ""
	if member != linksign.NoSeat {
		if member < 0 || member >= len(l.Members) {
			return service.Fail(service.CodeForbidden, fmt.Errorf("ask member %d of %d", member, len(l.Members)))
		}
		m := l.Members[member]
		if !m.Pending {
			return &service.Error{Code: service.CodeWrongStatus, RU: "Ваш адрес уже подтверждён.", EN: "Your address is confirmed already."}
		}
		ready, err := s.organiserReady(ctx, l)
		if err != nil {
			return err
		}
		if !ready {
			return &service.Error{Code: service.CodeWrongStatus,
				RU: "Адрес организатора лиги ещё не подтверждён: письмо для подтверждения придёт вам после этого.",
				EN: "The league's organiser has not confirmed their address yet: your confirmation mail comes once they have."}
		}
		email, who = m.Email, m.Name
	} else if ready, err := s.organiserReady(ctx, l); err != nil || ready {
		if err == nil {
			err = &service.Error{Code: service.CodeWrongStatus, RU: "Ваш адрес уже подтверждён.", EN: "Your address is confirmed already."}
		}
		return err
	}
	letter, err := s.confirmation(ctx, email, who)
	if err != nil {
		return err
	}
	err = s.updateLeague(ctx, id, func(l *League) error {
		if member != linksign.NoSeat {
			l.Members[member].Asked = s.now().Unix()
		}
		l.Outbox = append(l.Outbox, *letter)
		return nil
	})
	if err != nil {
		return err
	}
	s.drainLater(ctx, id)
	return nil
}

// decides tells whether this deployment decides the league's letters:
// it sends them (Post), or another function does (Queue).
func (s *Service) decides() bool { return s.post != nil || s.queue }

// drainLater sends the league item's letters now if this deployment has
// the Post (the local run, tests); a failure is logged, and the sweep
// sends what is left (the league item wakes it).
func (s *Service) drainLater(ctx context.Context, id string) {
	if s.post == nil {
		return
	}
	if err := s.drainLeague(ctx, id); err != nil {
		s.log.ErrorContext(ctx, "league mail", "league", id, "err", err)
	}
}

// drainLeague sends the league item's letters (the confirmations) and
// takes those sent out of its outbox. A letter is sent at least once.
func (s *Service) drainLeague(ctx context.Context, id string) error {
	if s.post == nil {
		return nil
	}
	sent := map[string]bool{}
	var errs []error
	for attempt := 1; ; attempt++ {
		l, ver, err := s.League(ctx, id)
		if err != nil || len(l.Outbox) == 0 {
			return errors.Join(append(errs, err)...)
		}
		kept := s.send(ctx, l, nil, l.Outbox, sent, &errs)
		if len(kept) == len(l.Outbox) {
			return errors.Join(errs...)
		}
		l.Outbox = kept
		_, err = s.putLeague(ctx, l, ver)
		if errors.Is(err, store.ErrConflict) && attempt < maxAttempts {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("league outbox: %w", err))
		}
		return errors.Join(errs...)
	}
}

// putLeague writes the league item after version ver, waking the sweep
// while its outbox holds letters (the sweep runs on its schedule: one
// the Post failed to send is tried again at the next).
func (s *Service) putLeague(ctx context.Context, l *League, ver int64) (int64, error) {
	var wake int64
	if len(l.Outbox) > 0 {
		wake = s.now().Unix()
	}
	return s.put(ctx, l.ID, leagueKey, l, ver, wake)
}
