// Command bounces is the Lambda function subscribed to the SNS topic the SES
// configuration set publishes bounce and complaint events to
// (BouncesFunction in template.yaml): it suppresses the addresses of
// permanent bounces and complaints (package bounces). It needs the table
// only: no keys, no mail.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/bounces"
	"github.com/pbmgames/pbm/functions/internal/wiring"
)

func main() {
	app := wiring.Init(wiring.TableOnly) // the table only
	lambda.Start(func(ctx context.Context, ev events.SNSEvent) error {
		return bounces.Handle(ctx, ev, app.Store.Suppress, app.Log)
	})
}
