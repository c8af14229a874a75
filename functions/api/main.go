// Command api is the HTTP API Lambda function (ApiFunction in
// template.yaml): API Gateway HTTP API events served by the same handler as
// the local run, on the DynamoDB table. Clients are built once, at init.
package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/lambdahttp"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
)

func main() {
	ctx := context.Background()
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	cfg, err := config.FromEnv(ctx)
	must(log, "config", err)
	awsCfg, err := config.LambdaAWS(ctx) // not LoadDefaultConfig: 2.4 MB lighter, see its doc
	must(log, "aws config", err)
	keys, err := config.LoadKeyring(ctx, awsCfg, cfg)
	must(log, "link keys", err)
	st := dynamostore.New(dynamodb.NewFromConfig(awsCfg), cfg.Table)
	svc := service.New(service.Config{Store: st, Keys: keys, Log: log, Limits: service.Limits{
		OrganiserPerHour: cfg.GamesPerOrganiserHour, OrganiserPerDay: cfg.GamesPerOrganiserDay,
		ClientPerHour: cfg.GamesPerClientHour, ClientPerDay: cfg.GamesPerClientDay,
		ConfirmedFor: time.Duration(cfg.ConfirmedDays) * 24 * time.Hour}})
	log.Info("init", "table", cfg.Table, "keys", keys, "key_source", cfg.KeySource())
	lambda.Start(lambdahttp.Handler(httpapi.New(httpapi.Deps{Service: svc, Log: log, BaseURL: cfg.BaseURL})))
}

// must ends the init, so Lambda reports it failed, if err is set.
func must(log *slog.Logger, what string, err error) {
	if err != nil {
		log.Error("init failed", "step", what, "err", err)
		os.Exit(1)
	}
}
