// Command notify is the notifier Lambda function (NotifyFunction in
// template.yaml): fed by the table's DynamoDB stream, filtered to game items
// with pending mail, to sign-in requests, to messages of the table talk
// and to the sweep's requests to tick a game, it mails the sign-in links
// asked for and the messages to the seats that asked for each one, ticks
// the games handed out (reminders and missed deadlines, P-4: their mail
// comes back on the stream), and drains each game's outbox, as the
// stream's image of the game has it (no read of the game), through SES
// and reports the games that failed as partial batch failures (package
// streams).
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/coldgc"
	"github.com/pbmgames/pbm/functions/internal/streams"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/functions/internal/wiring/sesmail"
)

func main() {
	app := wiring.Init(sesmail.SendsMail)
	lambda.Start(coldgc.Handler(lambda.NewHandler(func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		streams.SendSignIns(ctx, ev, func(ctx context.Context, email string) error {
			return app.Notifier.SendSignIn(ctx, email, "") // the player's language
		}, app.Log)
		streams.SendTalks(ctx, ev, app.Notifier.SendTalk, app.Log)
		streams.Ticks(ctx, ev, app.Service.TickGames, app.Log)
		return streams.HandleImages(ctx, ev, app.Notifier.DrainImage, app.Log)
	})))
}
