// Package lambdaenv reads what a Lambda function's environment gives it:
// the configuration, the AWS clients' settings, the link keys (fetched
// from SSM or Secrets Manager) and the DynamoDB table as the store, with
// the function's logger. Package wiring builds the application on it; the
// bounces function, which needs the table alone, uses it directly, so
// that its binary neither links nor initialises the service, the pages
// and their templates (package wiring imports them all), which measurably
// lengthen every cold start.
package lambdaenv

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/pbmgames/pbm/infra/awsapi/ddb"
	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
)

// Env is what a Lambda function's environment gives it.
type Env struct {
	Config config.Config
	// AWS is the SDK configuration the function's clients are made from.
	AWS aws.Config
	// Keys sign and check links; nil unless config.NeedLinkKeys was asked.
	Keys  *linksign.Keyring
	Store *dynamostore.Store
}

// Load reads the environment (template.yaml sets it) for a function that
// needs what need says besides its table, fetches the link keys if it
// needs them, and logs what it found on log (never a key). Done once, at
// init: an error ends the init (Must), before any invocation.
func Load(ctx context.Context, log *slog.Logger, need config.Need) (*Env, error) {
	cfg, err := config.FromEnvFor(ctx, need)
	if err != nil {
		return nil, err
	}
	awsCfg, err := config.LambdaAWS(ctx) // not LoadDefaultConfig: 2.4 MB lighter, see its doc
	if err != nil {
		return nil, fmt.Errorf("aws config: %w", err)
	}
	var keys *linksign.Keyring
	if need&config.NeedLinkKeys != 0 {
		if keys, err = config.LoadKeyring(ctx, awsCfg, cfg); err != nil {
			return nil, fmt.Errorf("link keys: %w", err)
		}
	}
	attrs := []any{"table", cfg.Table, "key_source", cfg.KeySource(),
		"from", cfg.MailFrom, "configuration_set", cfg.SESConfigurationSet, "base_url", cfg.BaseURL}
	if keys != nil {
		attrs = append(attrs, "keys", keys) // key ids only (Keyring.LogValue)
	}
	log.Info("init", attrs...)
	return &Env{Config: cfg, AWS: awsCfg, Keys: keys, Store: dynamostore.New(ddb.New(awsCfg), cfg.Table)}, nil
}

// Must ends the init, so that Lambda reports it failed, if err is set.
func Must(log *slog.Logger, step string, err error) {
	if err != nil {
		log.Error("init failed", "step", step, "err", err)
		os.Exit(1)
	}
}
