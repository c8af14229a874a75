package wiring

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
)

// Role is what a Lambda function needs from its environment besides its
// table: API, TableOnly, or sesmail.SendsMail.
type Role struct {
	need config.Need
	// mail makes the function's mail sender; nil for one that sends none.
	mail func(aws.Config, config.Config) *Mail
}

var (
	// API serves the HTTP API: it signs and checks links.
	API = Role{need: config.NeedLinkKeys}
	// TableOnly needs the table alone (bounces): no keys, no mail.
	TableOnly = Role{}
)

// MailRole is the role of a function that drains outboxes: it signs links
// and sends mail through the sender mail makes from the function's AWS
// and mail configuration (package sesmail: SES). The sender is plugged in
// from outside this package so that the functions that send no mail do
// not import the SES client: its package initialisation alone is 0.2 MB
// of binary and work at every cold start.
func MailRole(mail func(aws.Config, config.Config) *Mail) Role {
	return Role{need: config.NeedLinkKeys | config.NeedMail, mail: mail}
}

// Lambda wires a Lambda function from its environment (template.yaml
// sets it): the configuration, what its role adds to the table (the link
// keys, fetched once here; the mail settings), the AWS clients, the
// DynamoDB table as the store, the service and, for a MailRole, the
// notifier. Built once, at init, and reused by every invocation.
// Mail is never sent right after a commit here: the table's stream feeds
// the notify function.
func Lambda(ctx context.Context, log *slog.Logger, role Role) (*App, error) {
	need := role.need
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
	p := Parts{
		Log:     log,
		Store:   dynamostore.New(dynamodb.NewFromConfig(awsCfg), cfg.Table),
		Keys:    keys,
		BaseURL: cfg.BaseURL,
		Limits: service.Limits{OrganiserPerHour: cfg.GamesPerOrganiserHour, OrganiserPerDay: cfg.GamesPerOrganiserDay,
			ClientPerHour: cfg.GamesPerClientHour, ClientPerDay: cfg.GamesPerClientDay,
			ConfirmedFor: time.Duration(cfg.ConfirmedDays) * 24 * time.Hour},
	}
	if role.mail != nil {
		p.Mail = role.mail(awsCfg, cfg)
	}
	attrs := []any{"table", cfg.Table, "key_source", cfg.KeySource(),
		"from", cfg.MailFrom, "configuration_set", cfg.SESConfigurationSet, "base_url", cfg.BaseURL}
	if keys != nil {
		attrs = append(attrs, "keys", keys) // key ids only (Keyring.LogValue)
	}
	log.Info("init", attrs...)
	return New(p), nil
}

// Init is a Lambda function's start-up, the same in every main: its
// logger (Logger), the application wired for role (Lambda), and the end
// of the init, so that Lambda reports it failed, if the wiring fails.
func Init(role Role) *App {
	log := Logger()
	app, err := Lambda(context.Background(), log, role)
	Must(log, "wiring", err)
	return app
}

// Must ends the init, so that Lambda reports it failed, if err is set.
func Must(log *slog.Logger, step string, err error) {
	if err != nil {
		log.Error("init failed", "step", step, "err", err)
		os.Exit(1)
	}
}
