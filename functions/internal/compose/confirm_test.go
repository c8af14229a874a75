package compose_test

import (
	"context"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestConfirmMail (issue 9, symptom 8): the mail asking an organiser to
// confirm their address is made by anyone for any address, so it carries
// nothing the creator wrote — no organiser's name, no player's name —
// says in both languages what it is and that ignoring it sends nothing,
// and links to the confirmation page with a confirm token.
func TestConfirmMail(t *testing.T) {
	for _, lang := range []string{"ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			st, keys := servicetest.Bolt(t), servicetest.Keys(t)
			now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler), Rand: testenv.Rand(t.Name())})
			spam := []string{"Cheap pills at example.net", "Купите слонов", "Win a prize"}
			created, err := svc.Create(context.Background(), service.CreateRequest{Kind: "western",
				Organiser: service.Person{Name: spam[0], Email: "victim@pbm.test", Lang: lang},
				Seats:     []service.Person{{Name: spam[1], Email: "a@pbm.test"}, {Name: spam[2], Email: "b@pbm.test"}}})
			if err != nil {
				t.Fatal(err)
			}
			rec, ver, err := svc.Load(context.Background(), created.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Outbox) != 1 || rec.Outbox[0].Kind != service.MailConfirm {
				t.Fatalf("outbox %+v, want one confirmation", rec.Outbox)
			}
			msg, err := compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "https://pbm.example"}).Compose(context.Background(), rec, ver, rec.Outbox[0])
			if err != nil {
				t.Fatal(err)
			}
			if msg.To != "victim@pbm.test" {
				t.Errorf("to %s", msg.To)
			}
			for _, part := range []string{msg.Subject, msg.Text, msg.HTML} {
				for _, s := range spam {
					if strings.Contains(part, s) {
						t.Errorf("the confirmation mail carries the creator's text %q", s)
					}
				}
			}
			for _, want := range []string{"Someone — perhaps you", "Кто-то — возможно, вы", "nothing will be sent to anyone", "никому ничего не будет отправлено"} {
				if !strings.Contains(msg.Text, want) || !strings.Contains(msg.HTML, want) {
					t.Errorf("the confirmation mail does not say %q", want)
				}
			}
			if (lang == "ru") != strings.Contains(msg.Subject, "Подтвердите") {
				t.Errorf("subject %q not in %s", msg.Subject, lang)
			}
			link := regexp.MustCompile(`https://pbm\.example/g/[a-z0-9]+/confirm\?[^\s"<>]+`).FindString(msg.Text)
			u, err := url.Parse(link)
			if link == "" || err != nil {
				t.Fatalf("no confirmation link in:\n%s", msg.Text)
			}
			if _, err := svc.Authorize(u.Query().Get("t"), created.ID, linksign.PurposeConfirm); err != nil {
				t.Errorf("the link's token does not confirm game %s: %v", created.ID, err)
			}
		})
	}
}
