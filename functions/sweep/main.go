// Command sweep is the scheduled sweep Lambda function (SweepFunction in
// template.yaml). Every few minutes it does what the clock asks
// (wiring.App.Sweep, which the local run's ticker calls too): of the games
// whose reminder or deadline is due (found through the table's sparse wake
// index: reminders mailed, defaults played for missed deadlines, P-4),
// then drains the games whose outbox still holds mail (the stream's
// retries ran out, SES was down), found through the outbox index, and
// sends the daily digests that are due (the digest index). It reads the
// link keys at their first use, not at init: most sweeps mail nothing
// (lambdaenv.Load).
package main

import (
	"context"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/pbmgames/pbm/functions/internal/coldgc"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/functions/internal/wiring/sesmail"
)

func main() {
	app := wiring.Init(sesmail.SendsMail)
	// The scheduled event carries nothing the sweep needs. A failure is
	// logged by the runtime and counted in Errors; the next run retries.
	lambda.Start(coldgc.Handler(lambda.NewHandler(func(ctx context.Context) error { return app.Sweep(ctx, time.Now()) })))
}
