// Command sweep is the scheduled sweep Lambda function (SweepFunction in
// template.yaml): every few minutes it drains the games whose outbox still
// holds mail (the stream's retries ran out, SES was down), found through the
// table's sparse outbox index.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/lambdainit"
)

func main() {
	log := lambdainit.Logger()
	m, err := lambdainit.NewMail(context.Background(), log)
	lambdainit.Must(log, "notifier", err)
	// The scheduled event carries nothing the sweep needs. A failure is
	// logged by the runtime and counted in Errors; the next run retries.
	lambda.Start(func(ctx context.Context) error {
		return m.Notifier.Sweep(ctx, m.Store.PendingOutbox)
	})
}
