package service

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/record"
	"github.com/pbmgames/pbm/infra/linksign"
)

// GameRecord is a finished game as one document anyone can replay
// (record.Document). It holds the seed and every hidden event, so it
// exists only once the game is over.
func (s *Service) GameRecord(ctx context.Context, rec *Record) (*record.Document, error) {
	if rec.Status != StatusOver {
		return nil, newError(CodeWrongStatus,
			"Запись партии с зерном и скрытыми ходами выдаётся, когда игра окончена.",
			"The game's record, with its seed and hidden moves, is given once the game is over.",
			fmt.Errorf("record of game %s in status %s", rec.ID, rec.Status))
	}
	g, err := s.Engine(rec)
	if err != nil {
		return nil, err
	}
	entries, err := s.FullLog(ctx, rec)
	if err != nil {
		return nil, err
	}
	doc := &record.Document{Format: record.Format, ID: rec.ID, Kind: rec.Kind, Rules: rec.Rules, Options: rec.Options,
		SeedSHA256: rec.SeedCommitment(), Seed: hex.EncodeToString(rec.Seed),
		Seats:    make([]record.Seat, g.Seats()),
		Commands: make([]record.Step, 0, len(entries)),
		Result:   record.Result{Over: g.Over(), Scores: g.Score()}}
	if len(doc.Options) == 0 {
		doc.Options = []byte("null")
	}
	for _, st := range rec.Seats {
		if st.Accepted && st.Engine >= 0 && st.Engine < len(doc.Seats) {
			doc.Seats[st.Engine].Name = st.Name
		}
	}
	for _, e := range entries {
		doc.Commands = append(doc.Commands, record.Step{N: e.N, Seat: e.Seat, Action: e.Action, At: e.At, Events: e.Events})
	}
	return doc, nil
}

// Imported answers an import: the new game and the link to view it.
type Imported struct {
	ID             string `json:"id"`
	SpectatorToken string `json:"spectator_token"`
	Steps          int    `json:"steps"`
	Rolls          int    `json:"rolls"`
	Cards          int    `json:"cards"`
}

// Import checks a game record by replaying it (record.Verify) and keeps
// it as a finished game of this instance that anyone with the answer's
// link can view: its pages, chart and log replay. A record that does not
// replay is refused with the first divergent step named; nobody is mailed.
// Imports, refused ones too, count against the client's limits as
// creations do.
func (s *Service) Import(ctx context.Context, doc *record.Document, client string) (Imported, error) {
	// Counted before the replay, which is the costly part: refused
	// records count too.
	if err := s.admit(ctx, "", client); err != nil {
		return Imported{}, err
	}
	rep, err := record.Verify(doc)
	if err != nil {
		var d *record.Divergence
		if errors.As(err, &d) && d.Step < 0 {
			return Imported{}, newError(CodeInvalid, "Запись не воспроизводится, ещё до первого шага: "+d.Reason+".",
				"The record does not replay: "+d.Error()+".", err)
		}
		if d != nil {
			return Imported{}, newError(CodeInvalid, fmt.Sprintf("Запись не воспроизводится: расхождение на шаге %d: %s.", d.Step, d.Reason),
				"The record does not replay: "+d.Error()+".", err)
		}
		return Imported{}, newError(CodeInvalid, "Запись не воспроизводится.", "The record does not replay.", err)
	}
	if !doc.Result.Over {
		return Imported{}, invalid("Запись неоконченной игры не принимается.", "Only the record of a finished game is taken.")
	}
	info, _ := games.Lookup(doc.Kind)
	if n := len(doc.Seats); n < info.MinSeats || n > info.MaxSeats {
		return Imported{}, invalid(fmt.Sprintf("В игре должно быть от %d до %d игроков.", info.MinSeats, info.MaxSeats),
			fmt.Sprintf("A game needs %d to %d players.", info.MinSeats, info.MaxSeats))
	}
	seed, _ := doc.SeedBytes() // Verify checked it
	rec := &Record{Format: RecordFormat, Kind: doc.Kind, Status: StatusOver, Seed: seed[:], ImportedFrom: doc.ID, Rules: doc.Rules}
	if string(doc.Options) != "null" && len(doc.Options) > 0 {
		rec.Options = doc.Options
	}
	for i, st := range doc.Seats {
		name := sanitize(st.Name)
		if err := checkName(name); err != nil {
			return Imported{}, err
		}
		rec.Seats = append(rec.Seats, SeatInfo{Person: Person{Name: name}, Accepted: true, Engine: i})
	}
	if rec.ID, err = s.newID(); err != nil {
		return Imported{}, err
	}
	if rec.State, err = rep.Game.MarshalJSON(); err != nil {
		return Imported{}, err
	}
	rec.Acted = make([]int, len(doc.Seats))
	for _, st := range doc.Commands {
		if err := rec.appendEntry(Entry{N: st.N, Seat: st.Seat, Action: st.Action, At: st.At, Events: st.Events}); err != nil {
			return Imported{}, err
		}
		rec.Moves++
		rec.Acted[st.Seat]++
	}
	rec.grow(len(doc.Seats))
	rec.Created = s.now().Unix()
	if _, err := s.commit(ctx, rec, 0); err != nil {
		return Imported{}, fmt.Errorf("import game %s: %w", rec.ID, err)
	}
	tok, err := s.Token(linksign.PurposeSpectator, rec.ID, linksign.NoSeat, 0, OrganiserTokenTTL)
	if err != nil {
		return Imported{}, err
	}
	s.log.InfoContext(ctx, "game imported", "game", rec.ID, "kind", rec.Kind, "from", doc.ID, "steps", rep.Steps)
	return Imported{ID: rec.ID, SpectatorToken: tok, Steps: rep.Steps, Rolls: rep.Rolls, Cards: rep.Cards}, nil
}
