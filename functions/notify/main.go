// Command notify is the notifier Lambda function (NotifyFunction in
// template.yaml): fed by the table's DynamoDB stream, filtered to game items
// with pending mail, it drains each game's outbox through SES and reports
// the games that failed as partial batch failures (package streams).
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/lambdainit"
	"github.com/pbmgames/pbm/functions/internal/streams"
)

func main() {
	log := lambdainit.Logger()
	m, err := lambdainit.NewMail(context.Background(), log)
	lambdainit.Must(log, "notifier", err)
	lambda.Start(func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		return streams.Handle(ctx, ev, m.Notifier.Drain, log)
	})
}
