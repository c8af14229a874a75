package leagues_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// postbox keeps the league mails a test's league sent, written by the
// real composer: what each member received, by kind.
type postbox struct {
	mu    sync.Mutex
	c     *compose.Composer
	got   map[string]map[string]int // member → kind → mails
	texts []string
}

func (b *postbox) post(ctx context.Context, l *leagues.League, season *leagues.Season, m leagues.Letter) error {
	msg, err := b.c.League(ctx, l, season, m)
	if err != nil {
		return err
	}
	if msg.Subject == "" || !strings.Contains(msg.Text, "/l/"+l.ID+"?t=") || !strings.Contains(msg.HTML, "</html>") {
		return fmt.Errorf("letter %s: a mail without subject, league link or end: %+v", m.ID, msg)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.got == nil {
		b.got = map[string]map[string]int{}
	}
	if b.got[m.Member] == nil {
		b.got[m.Member] = map[string]int{}
	}
	b.got[m.Member][m.Kind]++
	b.texts = append(b.texts, msg.Text)
	return nil
}

// servicesWithPost is services with the league's mails composed and kept
// in box (nil: the league decides no mail).
func servicesWithPost(t *testing.T, st gameStore, leagueStore store.LeagueStore, c *clock, box *postbox) (*service.Service, *leagues.Service) {
	t.Helper()
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Now: c.Now, Rand: testenv.Rand(t.Name()),
		Limits: servicetest.Roomy, Log: log})
	var post leagues.Post
	if box != nil {
		box.c = compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "https://pbm.test", NoPicture: true})
		post = box.post
	}
	lg := leagues.New(leagues.Config{Store: leagueStore, Games: svc, Now: c.Now, Rand: testenv.Rand(t.Name() + "/leagues"), Log: log, Post: post})
	return svc, lg
}

// checkLetters: every mail a member received respects their preference
// (leagues.Wants), and each got what their preference promises: the
// season's start, a table for each of its rounds, the weekly standings
// (weeks is how many), the result.
func checkLetters(t *testing.T, box *postbox, l *leagues.League, rounds, weeks int) {
	t.Helper()
	want := map[string]map[string]int{
		store.MailAll:    {leagues.LetterStart: 1, leagues.LetterRound: rounds, leagues.LetterStandings: weeks, leagues.LetterResult: 1},
		store.MailTurns:  {leagues.LetterRound: rounds},
		store.MailDigest: {leagues.LetterRound: rounds, leagues.LetterStandings: weeks, leagues.LetterResult: 1},
	}
	prefs := map[string]int{}
	for _, m := range l.Members {
		prefs[m.Mail]++
		got := box.got[m.Name]
		for kind, n := range got {
			if !leagues.Wants(m.Mail, kind) {
				t.Errorf("%s (mail %q) received %d %s mails, which they did not want", m.Name, m.Mail, n, kind)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want[m.Mail]) {
			t.Errorf("%s (mail %q) received %v, want %v", m.Name, m.Mail, got, want[m.Mail])
		}
	}
	if len(prefs) < 3 {
		t.Errorf("the members' preferences %v: want all three kinds", prefs)
	}
	t.Logf("league mails of the season: %d sent; members by preference %v", len(box.texts), prefs)
}
