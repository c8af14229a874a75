// Package lambdainit holds the init the mail-sending Lambda functions
// (notify, sweep) share: the JSON logger, ending a failed init, and the
// notifier on the DynamoDB table and SES. Each function builds it once, at
// init, and reuses it across invocations.
package lambdainit

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/mailer"
	"github.com/pbmgames/pbm/infra/mailer/sesmailer"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
)

// Logger is a function's logger: JSON lines on stdout, which Lambda's
// JSON log format keeps as they are.
func Logger() *slog.Logger { return slog.New(slog.NewJSONHandler(os.Stdout, nil)) }

// Must ends the init, so that Lambda reports it failed, if err is set.
func Must(log *slog.Logger, step string, err error) {
	if err != nil {
		log.Error("init failed", "step", step, "err", err)
		os.Exit(1)
	}
}

// Mail is what the mail-sending functions share.
type Mail struct {
	Config   config.Config
	Store    *dynamostore.Store
	Notifier *notify.Notifier
}

// NewMail reads the configuration (table, link keys and mail settings),
// fetches the keyring, and wires the notifier: the service on the
// DynamoDB table, the composer and the SES sender.
func NewMail(ctx context.Context, log *slog.Logger) (*Mail, error) {
	cfg, err := config.FromEnvFor(ctx, config.NeedLinkKeys|config.NeedMail)
	if err != nil {
		return nil, err
	}
	awsCfg, err := config.LambdaAWS(ctx) // not LoadDefaultConfig: see its doc
	if err != nil {
		return nil, err
	}
	keys, err := config.LoadKeyring(ctx, awsCfg, cfg)
	if err != nil {
		return nil, err
	}
	st := dynamostore.New(dynamodb.NewFromConfig(awsCfg), cfg.Table)
	svc := service.New(service.Config{Store: st, Players: st, Keys: keys, Log: log})
	n := &notify.Notifier{
		Service:   svc,
		Composer:  compose.New(compose.Config{Service: svc, BaseURL: cfg.BaseURL}),
		Sender:    NewSESSender(sesmailer.New(sesv2.NewFromConfig(awsCfg), cfg.MailFrom, cfg.SESConfigurationSet)),
		Players:   st,
		Permanent: sesmailer.IsPermanent,
		Log:       log,
	}
	log.Info("init", "table", cfg.Table, "keys", keys, "key_source", cfg.KeySource(),
		"from", cfg.MailFrom, "configuration_set", cfg.SESConfigurationSet, "base_url", cfg.BaseURL)
	return &Mail{Config: cfg, Store: st, Notifier: n}, nil
}

// SESSender is the SES sender as a notify.Sender.
//
// It holds the sender's Send as a method value, not the sender: a type
// converted to an interface (notify.Sender) makes the linker keep every
// exported method of the types its fields reach, once anything calls
// methods by reflection (text/template does). Through sesmailer.Sender's
// field that would be all of the SES v2 client's operations: 1.6 MB more.
type SESSender struct {
	send func(context.Context, mailer.Message) error
}

// NewSESSender wraps s.
func NewSESSender(s *sesmailer.Sender) SESSender { return SESSender{send: s.Send} }

// Send implements notify.Sender.
func (s SESSender) Send(ctx context.Context, m notify.Message) error { return s.send(ctx, m) }
