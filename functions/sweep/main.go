// Command sweep is the scheduled sweep Lambda function (SweepFunction in
// template.yaml). Every few minutes it does what the clock asks of the
// games whose reminder or deadline is due (found through the table's
// sparse wake index: reminders mailed, defaults played for missed
// deadlines, P-4), then drains the games whose outbox still holds mail (the
// stream's retries ran out, SES was down), found through the outbox index,
// and sends the daily digests that are due (the digest index).
package main

import (
	"context"
	"errors"
	"time"

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
		_, tickErr := m.Notifier.Service.TickAll(ctx)
		return errors.Join(tickErr, m.Notifier.Sweep(ctx, m.Store.PendingOutbox), m.Notifier.SendDigests(ctx, time.Now()))
	})
}
