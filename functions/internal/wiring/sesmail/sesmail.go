// Package sesmail plugs SES into the wiring as the sender of the Lambda
// functions that send mail (notify, sweep). It is apart from package
// wiring so that the functions that send none do not link the SES client.
package sesmail

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/mailer"
	"github.com/pbmgames/pbm/infra/mailer/sesmailer"
)

// SendsMail is the role of the functions that drain outboxes: the link
// keys, the mail settings, and SES v2 as the sender, its permanent
// refusals dropped rather than retried.
var SendsMail = wiring.MailRole(func(awsCfg aws.Config, cfg config.Config) *wiring.Mail {
	ses := sesmailer.New(sesv2.NewFromConfig(awsCfg), cfg.MailFrom, cfg.SESConfigurationSet)
	return wiring.NewMail(NewSender(ses), sesmailer.IsPermanent, false)
})

// Sender is the SES sender as a notify.Sender.
//
// It holds the sender's Send as a method value, not the sender: a type
// converted to an interface (notify.Sender) makes the linker keep every
// exported method of the types its fields reach, once anything calls
// methods by reflection (text/template does). Through sesmailer.Sender's
// field that would be all of the SES v2 client's operations: 1.6 MB more.
type Sender struct {
	send func(context.Context, mailer.Message) error
}

// NewSender wraps s.
func NewSender(s *sesmailer.Sender) Sender { return Sender{send: s.Send} }

// Send implements notify.Sender.
func (s Sender) Send(ctx context.Context, m notify.Message) error { return s.send(ctx, m) }
