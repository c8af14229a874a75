package wiring

import (
	"context"
	"log/slog"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/wiring/lambdaenv"
	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/linkkeys"
)

// Role is what a Lambda function needs from its environment besides its
// table: API or sesmail.SendsMail. (The bounces function, which needs the
// table alone, is not wired here: see package lambdaenv.)
type Role struct {
	need config.Need
	// mail makes the function's mail sender; nil for one that sends none.
	mail func(aws.Config, config.Config) *Mail
}

// API serves the HTTP API: it signs and checks links.
var API = Role{need: config.NeedLinkKeys}

// MailRole is the role of a function that drains outboxes: it signs links
// and sends mail through the sender mail makes from the function's AWS
// and mail configuration (package sesmail: SES). The sender is plugged in
// from outside this package so that the functions that send no mail do
// not import the SES client: its package initialisation alone is 0.2 MB
// of binary and work at every cold start.
func MailRole(mail func(aws.Config, config.Config) *Mail) Role {
	return Role{need: config.NeedLinkKeys | config.NeedMail, mail: mail}
}

// Lambda wires a Lambda function from its environment (lambdaenv.Load:
// the configuration, the link keys read from SSM by package linkkeys at
// their first use, the mail settings, the AWS SDK's configuration, the
// DynamoDB table as the store): the service and, for
// a MailRole, the notifier. Built once, at init, and reused by every
// invocation. Mail is never sent right after a commit here: the table's
// stream feeds the notify function.
func Lambda(ctx context.Context, log *slog.Logger, role Role) (*App, error) {
	env, err := lambdaenv.Load(ctx, log, role.need, linkkeys.ReadFunc)
	if err != nil {
		return nil, err
	}
	cfg := env.Config
	p := Parts{
		Log:     log,
		Store:   env.Store,
		BaseURL: cfg.BaseURL,
		Limits: service.Limits{OrganiserPerHour: cfg.GamesPerOrganiserHour, OrganiserPerDay: cfg.GamesPerOrganiserDay,
			ClientPerHour: cfg.GamesPerClientHour, ClientPerDay: cfg.GamesPerClientDay,
			ConfirmedFor: time.Duration(cfg.ConfirmedDays) * 24 * time.Hour},
	}
	if role.mail != nil {
		p.Mail = role.mail(env.AWS, cfg)
	}
	// The keys are read at their first use, not here
	// (lambdaenv.Env.Keys).
	p.KeysLater, p.KeysPending = env.Keys, env.KeysPending
	return New(p), nil
}

// Init is a Lambda function's start-up, the same in every main that
// serves the game (api, notify, sweep): its logger (lambdaenv.Logger),
// the application wired for role (Lambda), and the end of the init, so
// that Lambda reports it failed, if the wiring fails.
func Init(role Role) *App {
	log := lambdaenv.Logger()
	app, err := Lambda(context.Background(), log, role)
	lambdaenv.Must(log, "wiring", err)
	return app
}
