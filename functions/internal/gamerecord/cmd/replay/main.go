// Command replay checks game records: it recomputes every roll and every
// card drawn of each game from its seed and its commands, and says
// whether they match the record, naming the first step that does not.
//
//	go run ./functions/internal/gamerecord/cmd/replay record.json...
//
// It exits 1 if any record does not replay, 2 if one cannot be read.
package main

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/catalog"
	"github.com/pbmgames/pbm/functions/internal/gamerecord"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: replay record.json...")
		os.Exit(2)
	}
	code := 0
	for _, path := range os.Args[1:] {
		if err := check(path); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			var d *gamerecord.Divergence
			if errors.As(err, &d) {
				code = max(code, 1)
			} else {
				code = 2
			}
		}
	}
	os.Exit(code)
}

func check(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	doc, err := gamerecord.Decode(f)
	if err != nil {
		return err
	}
	rep, err := gamerecord.Verify(catalog.Games().Engines(), doc)
	if err != nil {
		return err
	}
	fmt.Printf("%s: game %s (%s, rules version %d, %d seats) replays: seed %s hashes to the commitment %s; %d steps, %d events, %d rolls and %d cards recomputed and equal\n",
		path, doc.ID, doc.Kind, doc.Rules, len(doc.Seats), doc.Seed, doc.SeedSHA256, rep.Steps, rep.Events, rep.Rolls, rep.Cards)
	scores := slices.Clone(doc.Result.Scores)
	slices.SortFunc(scores, func(a, b engine.Score) int { return a.Place - b.Place })
	for _, sc := range scores {
		fmt.Printf("  %d. %s: %d\n", sc.Place, doc.Seats[sc.Seat].Name, sc.NetWorth)
	}
	return nil
}
