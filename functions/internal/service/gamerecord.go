package service

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pbmgames/pbm/functions/internal/gamerecord"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// GameRecord is a finished game as one document anyone can replay
// (gamerecord.Document). It holds the seed and every hidden event, so it
// exists only once the game is over.
func (s *Service) GameRecord(ctx context.Context, rec *Record) (*gamerecord.Document, error) {
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
	doc := &gamerecord.Document{Format: gamerecord.Format, ID: rec.ID, Kind: rec.Kind, Rules: rec.Rules, Options: rec.Options,
		SeedSHA256: rec.SeedCommitment(), Seed: hex.EncodeToString(rec.Seed),
		Seats:    make([]gamerecord.Seat, g.Seats()),
		Commands: make([]gamerecord.Step, 0, len(entries)),
		Result:   gamerecord.Result{Over: g.Over(), Scores: g.Score()}}
	if len(doc.Options) == 0 {
		doc.Options = []byte("null")
	}
	for _, st := range rec.Seats {
		if st.Accepted && st.Engine >= 0 && st.Engine < len(doc.Seats) {
			doc.Seats[st.Engine].Name = st.Name
		}
	}
	for _, e := range entries {
		doc.Commands = append(doc.Commands, gamerecord.Step{N: e.N, Seat: e.Seat, Action: e.Action, At: e.At, Events: e.Events})
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

// Import checks a game record by replaying it (gamerecord.Verify) and keeps
// it as a finished game of this instance that anyone with the answer's
// link can view: its pages, chart and log replay. A record that does not
// replay is refused with the first divergent step named; nobody is mailed.
// The same record imported again lands on the same game (its id comes
// from the record) and counts nothing. Imports, refused ones too, count
// against the client's limits as creations do, but only once the server
// has done its part: a client over its limit is refused before the
// replay (Blocked), a record is counted once refused or kept, and a
// request the server fails uses up nothing of the limit.
func (s *Service) Import(ctx context.Context, doc *gamerecord.Document, client string) (Imported, error) {
	if err := s.Blocked(ctx, CountGames, "", client); err != nil {
		return Imported{}, err
	}
	id, err := importID(doc)
	if err != nil {
		return Imported{}, err
	}
	if rec, _, err := s.Load(ctx, id); err == nil {
		return s.imported(rec, doc, -1)
	} else if !errors.Is(err, store.ErrNotFound) {
		return Imported{}, err
	}
	rec, rep, err := s.importRecord(doc)
	if e := AsError(err); e != nil {
		if e.Code == CodeInternal {
			return Imported{}, err
		}
		// The replay is the costly part: a refused record counts too.
		if err := s.count(ctx, CountGames, "", client, true); err != nil {
			return Imported{}, err
		}
		return Imported{}, err
	}
	rec.ID = id
	rec.Created = s.now().Unix()
	if _, err := s.commit(ctx, rec, 0); errors.Is(err, store.ErrConflict) {
		// The same record raced in: the game it made is the answer.
		if rec, _, err = s.Load(ctx, id); err != nil {
			return Imported{}, err
		}
		return s.imported(rec, doc, -1)
	} else if err != nil {
		return Imported{}, fmt.Errorf("import game %s: %w", id, err)
	}
	s.log.InfoContext(ctx, "game imported", "game", rec.ID, "kind", rec.Kind, "from", doc.ID, "steps", rep.Steps)
	// Counted once kept: the game is made whatever the count says, and a
	// client that reached its limit now is refused from its next import.
	if err := s.count(ctx, CountGames, "", client, true); err != nil {
		s.log.InfoContext(ctx, "import past the limit", "game", rec.ID, "err", err)
	}
	return s.imported(rec, doc, rep.Steps)
}

// importID is the id of the game a record imports as: the same record,
// whoever imports it, makes the same game.
func importID(doc *gamerecord.Document) (string, error) {
	b, err := json.Marshal(doc) // compact: the options as sent, but spaced alike
	if err != nil {
		return "", Fail(CodeInvalid, fmt.Errorf("record: %w", err))
	}
	h := sha256.Sum256(append([]byte("import\x00"), b...))
	return strings.ToLower(base32.StdEncoding.EncodeToString(h[:15])), nil
}

// importRecord replays doc and makes the finished game it keeps, without
// its id; the error is the refusal of a record that does not replay.
func (s *Service) importRecord(doc *gamerecord.Document) (*Record, gamerecord.Report, error) {
	rep, err := gamerecord.Verify(s.games, doc)
	if err != nil {
		var d *gamerecord.Divergence
		if errors.As(err, &d) && d.Step < 0 {
			return nil, rep, newError(CodeInvalid, "Запись не воспроизводится, ещё до первого шага: "+d.Reason+".",
				"The record does not replay: "+d.Error()+".", err)
		}
		if d != nil {
			return nil, rep, newError(CodeInvalid, fmt.Sprintf("Запись не воспроизводится: расхождение на шаге %d: %s.", d.Step, d.Reason),
				"The record does not replay: "+d.Error()+".", err)
		}
		return nil, rep, newError(CodeInvalid, "Запись не воспроизводится.", "The record does not replay.", err)
	}
	if !doc.Result.Over {
		return nil, rep, invalid("Запись неоконченной игры не принимается.", "Only the record of a finished game is taken.")
	}
	info, _ := s.games.Lookup(doc.Kind)
	if n := len(doc.Seats); n < info.MinSeats || n > info.MaxSeats {
		return nil, rep, invalid(fmt.Sprintf("В игре должно быть от %d до %d игроков.", info.MinSeats, info.MaxSeats),
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
			return nil, rep, err
		}
		rec.Seats = append(rec.Seats, SeatInfo{Person: Person{Name: name}, Accepted: true, Engine: i})
	}
	var err2 error
	if rec.State, err2 = rep.Game.MarshalJSON(); err2 != nil {
		return nil, rep, err2
	}
	rec.Acted = make([]int, len(doc.Seats))
	for _, st := range doc.Commands {
		if err := rec.appendEntry(Entry{N: st.N, Seat: st.Seat, Action: st.Action, At: st.At, Events: st.Events}); err != nil {
			return nil, rep, err
		}
		rec.Moves++
		// Acted counts the players' commands; the organiser's (seat
		// engine.Organiser: the end of the game) are no seat's.
		if st.Seat >= 0 && st.Seat < len(rec.Acted) {
			rec.Acted[st.Seat]++
		}
	}
	rec.grow(len(doc.Seats))
	return rec, rep, nil
}

// imported answers an import of rec: its spectator's link. steps < 0: rec
// was imported before, and its log says how many.
func (s *Service) imported(rec *Record, doc *gamerecord.Document, steps int) (Imported, error) {
	if rec.Status != StatusOver {
		return Imported{}, fmt.Errorf("import %s: the id is a game not imported", rec.ID)
	}
	tok, err := s.Token(linksign.PurposeSpectator, rec.ID, linksign.NoSeat, 0, OrganiserTokenTTL)
	if err != nil {
		return Imported{}, err
	}
	out := Imported{ID: rec.ID, SpectatorToken: tok, Steps: steps}
	for _, st := range doc.Commands {
		for _, e := range st.Events {
			switch e.Type {
			case "roll":
				out.Rolls++
			case "card", "xcard_drawn":
				out.Cards++
			}
		}
	}
	if steps < 0 {
		out.Steps = rec.Moves
	}
	return out, nil
}
