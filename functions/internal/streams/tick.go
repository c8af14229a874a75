package streams

import (
	"context"
	"log/slog"
	"slices"

	"github.com/aws/aws-lambda-go/events"
)

// TickPrefix begins the sk of a request to tick a game, written by the
// sweep in its game's partition ("GAME#<id>", "TICK#<wake>"; dynamostore's
// tick requests, service.Config.HandOut): its insertion hands the game to
// the notifier, which ticks it (P-4's reminders and defaults). The sweep
// so hands out thousands of games due in a few requests, and the stream's
// notifiers tick them many at once. template.yaml's stream filter matches
// the same.
const TickPrefix = "TICK#"

// TickRequested returns the game a record asks to tick (a tick request
// inserted), or "" for any other record: a request written again is no
// new one.
func TickRequested(r events.DynamoDBEventRecord) string {
	game, _, _ := insertedInGame(r, TickPrefix)
	return game
}

// Ticker ticks games: service.Service.TickGames, which reads them in
// one request.
type Ticker func(ctx context.Context, games []string) error

// Ticks ticks the games a batch asks to tick, each once. A tick that
// fails is logged and not retried: the game stays due, and the sweep
// ticks it itself once it has been due for service.HandOutFor; a retried
// batch would mail the sign-ins and talk in it twice.
func Ticks(ctx context.Context, ev events.DynamoDBEvent, tick Ticker, log *slog.Logger) {
	var games []string
	for _, r := range ev.Records {
		if game := TickRequested(r); game != "" && !slices.Contains(games, game) {
			games = append(games, game)
		}
	}
	if len(games) == 0 {
		return
	}
	if err := tick(ctx, games); err != nil {
		log.ErrorContext(ctx, "ticks asked for failed", "games", games, "err", err)
	}
}
