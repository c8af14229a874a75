// Command bounces is the Lambda function subscribed to the SNS topic the SES
// configuration set publishes bounce and complaint events to
// (BouncesFunction in template.yaml): it suppresses the addresses of
// permanent bounces and complaints (package bounces). It needs the table
// only: no keys, no mail.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/pbmgames/pbm/functions/internal/bounces"
	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
)

func main() {
	ctx := context.Background()
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	cfg, err := config.FromEnvFor(ctx, 0) // the table only
	must(log, "config", err)
	awsCfg, err := config.LambdaAWS(ctx) // not LoadDefaultConfig: see its doc
	must(log, "aws config", err)
	st := dynamostore.New(dynamodb.NewFromConfig(awsCfg), cfg.Table)
	log.Info("init", "table", cfg.Table)
	lambda.Start(func(ctx context.Context, ev events.SNSEvent) error {
		return bounces.Handle(ctx, ev, st.Suppress, log)
	})
}

// must ends the init, so Lambda reports it failed, if err is set.
func must(log *slog.Logger, step string, err error) {
	if err != nil {
		log.Error("init failed", "step", step, "err", err)
		os.Exit(1)
	}
}
