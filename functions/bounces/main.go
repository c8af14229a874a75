// Command bounces is the Lambda function subscribed to the SNS topic the SES
// configuration set publishes bounce and complaint events to
// (BouncesFunction in template.yaml): it suppresses the addresses of
// permanent bounces and complaints (package suppression). It needs the table
// only: no keys, no mail, and so not the game's wiring (package wiring)
// either, whose service and pages would only lengthen its cold starts.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/coldgc"
	"github.com/pbmgames/pbm/functions/internal/suppression"
	"github.com/pbmgames/pbm/functions/internal/wiring/lambdaenv"
)

func main() {
	log := lambdaenv.Logger()
	env, err := lambdaenv.Load(context.Background(), log, 0, nil) // the table only
	lambdaenv.Must(log, "wiring", err)
	lambda.Start(coldgc.Handler(lambda.NewHandler(func(ctx context.Context, ev events.SNSEvent) error {
		return suppression.Handle(ctx, ev, env.Store.Suppress, log)
	})))
}
