package leagues

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/store"
)

// Substitute is someone the organiser seats in a member's place from a
// round on: they play the member's seat in the games made from then, and
// the results still count for the member (package leaguerules' doc).
type Substitute struct {
	Member    string         `json:"member"`
	FromRound int            `json:"from_round"`
	Person    service.Person `json:"person"`
}

// playerOf is who plays member's seat in round n: the latest substitute
// seated from n or earlier, else the member.
func (season *Season) playerOf(m Member, n int) service.Person {
	p := service.Person{Name: m.Name, Email: m.Email, Lang: m.Lang}
	best := 0
	for _, sub := range season.Substitutes {
		if sub.Member == m.Name && sub.FromRound <= n && sub.FromRound >= best {
			p, best = sub.Person, sub.FromRound
		}
	}
	return p
}

// SeatSubstitute seats person in member's place in the current season
// from round from on, a round not yet started. Seating the same person
// again changes nothing.
func (s *Service) SeatSubstitute(ctx context.Context, id, member string, person service.Person, from int) error {
	sub, err := cleanMember(Member{Name: person.Name, Email: person.Email, Lang: person.Lang})
	if err != nil {
		return err
	}
	l, _, err := s.League(ctx, id)
	if err != nil {
		return err
	}
	if _, ok := l.Member(member); !ok {
		return &service.Error{Code: service.CodeNotFound, RU: "Нет такого участника.", EN: "No such member."}
	}
	// A substitute is invited to the round's games as a game's players
	// are: once the organiser has confirmed their address.
	if ready, err := s.organiserReady(ctx, l); err != nil || !ready {
		if err == nil {
			err = errUnconfirmed
		}
		return err
	}
	for attempt := 1; ; attempt++ {
		season, ver, wake, err := s.current(ctx, id)
		if err != nil {
			return err
		}
		if season == nil || season.Over {
			return &service.Error{Code: service.CodeWrongStatus, RU: "Сезон не идёт.", EN: "No season is running."}
		}
		if from < 1 || from > len(season.Rounds) || season.Rounds[from-1].Started {
			return invalid("Замену можно посадить только на тур, который ещё не начался.", "A substitute can only be seated for a round not started yet.")
		}
		seated := false
		for _, div := range season.Divisions {
			for _, name := range div {
				seated = seated || name == member
			}
		}
		if !seated {
			return invalid("Этот участник не играет в этом сезоне.", "That member does not play this season.")
		}
		p := service.Person{Name: sub.Name, Email: sub.Email, Lang: sub.Lang}
		for _, old := range season.Substitutes {
			if old.Member == member && old.FromRound == from && old.Person == p {
				return nil
			}
		}
		season.Substitutes = append(season.Substitutes, Substitute{Member: member, FromRound: from, Person: p})
		_, err = s.put(ctx, id, seasonKey(season.N), season, ver, wake)
		if errors.Is(err, store.ErrConflict) && attempt < maxAttempts {
			continue
		}
		if err != nil {
			return fmt.Errorf("seat a substitute in league %s: %w", id, err)
		}
		s.log.InfoContext(ctx, "substitute seated", "league", id, "season", season.N, "from_round", from)
		return nil
	}
}
