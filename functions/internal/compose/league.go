package compose

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// LeagueMail is what a league's own mail adds to Data: a few lines, the
// member's division table and a second link (the league's page).
type LeagueMail struct {
	Lines              []string
	TableTitle         string
	Table              []LeagueRow
	PageLink, PageText string
}

// LeagueRow is a line of a division's table in a league mail.
type LeagueRow struct {
	Rank         int
	Name, Points string
	Me           bool
}

// League writes one of a league's own mails (leagues.Letter) to its
// member, in their language, with the times in their time zone: the
// start of a season, their table for a new round with the signed link to
// their seat, the weekly standings, the season's result. A substitute
// seated in the member's place gets the round's mail about the seat they
// play.
func (c *Composer) League(ctx context.Context, l *leagues.League, season *leagues.Season, m leagues.Letter) (notify.Message, error) {
	if m.Kind == leagues.LetterConfirm {
		return c.leagueConfirm(l, m)
	}
	idx := slices.IndexFunc(l.Members, func(o leagues.Member) bool { return o.Name == m.Member })
	if idx < 0 {
		return notify.Message{}, fmt.Errorf("league %s letter %s: no member %q", l.ID, m.ID, m.Member)
	}
	member := l.Members[idx]
	to := service.Person{Name: member.Name, Email: member.Email, Lang: member.Lang}
	zone, err := service.ZoneOf(member.TimeZone)
	if err != nil {
		zone = time.UTC
	}
	div := divisionOf(season, m.Member)
	lm := &LeagueMail{}
	d := Data{Lang: to.Lang, Game: l.Name, League: lm}
	day := func(unix int64) string {
		return time.Unix(unix, 0).In(zone).Format("2006-01-02 15:04") + " " + zone.String()
	}

	switch m.Kind {
	case leagues.LetterStart:
		d.Subject = templates.Tf(to.Lang, "league_mail_start_subject", l.Name, season.N)
		d.Text = templates.Tf(to.Lang, "league_mail_start", season.N, div+1, len(season.Rounds), day(season.Rounds[0].StartAt), day(season.Rounds[len(season.Rounds)-1].CloseAt))
		if div >= 0 {
			lm.Lines = append(lm.Lines, templates.T(to.Lang, "league_division_members")+": "+strings.Join(season.Divisions[div], ", "))
		}
	case leagues.LetterRound:
		if m.Round < 1 || m.Round > len(season.Rounds) {
			return notify.Message{}, fmt.Errorf("league %s letter %s: no round %d", l.ID, m.ID, m.Round)
		}
		r := season.Rounds[m.Round-1]
		ti := slices.IndexFunc(r.Tables, func(t leagues.Table) bool { return slices.Contains(t.Seats, m.Member) })
		if ti < 0 || r.Tables[ti].Game == "" {
			return notify.Message{}, fmt.Errorf("league %s letter %s: %q has no game in round %d", l.ID, m.ID, m.Member, m.Round)
		}
		t := r.Tables[ti]
		inv := slices.Index(t.Seats, m.Member)
		rec, _, err := c.svc.Load(ctx, t.Game)
		if err != nil {
			return notify.Message{}, fmt.Errorf("league %s letter %s: %w", l.ID, m.ID, err)
		}
		if inv < len(rec.Seats) && !strings.EqualFold(rec.Seats[inv].Email, member.Email) {
			to = rec.Seats[inv].Person // a substitute plays the seat
		}
		d.Lang = to.Lang
		d.Subject = templates.Tf(to.Lang, "league_mail_round_subject", l.Name, m.Round)
		d.Text = templates.Tf(to.Lang, "league_mail_round", m.Round, day(r.CloseAt))
		lm.Lines = append(lm.Lines, templates.T(to.Lang, "league_table_seats")+": "+strings.Join(t.Seats, ", "))
		d.LinkText = templates.T(to.Lang, "open_game")
		if d.Link, err = c.seatLink(t.Game, inv, 0, to.Lang); err != nil {
			return notify.Message{}, err
		}
	case leagues.LetterStandings, leagues.LetterResult:
		rows, err := season.Standings()
		if err != nil {
			return notify.Message{}, err
		}
		if season.Over {
			rows = season.Tables
		}
		d.Subject = templates.Tf(to.Lang, "league_mail_standings_subject", l.Name, season.N)
		d.Text = templates.T(to.Lang, "league_mail_standings")
		if m.Kind == leagues.LetterResult {
			d.Subject = templates.Tf(to.Lang, "league_mail_result_subject", l.Name, season.N)
			d.Text = templates.Tf(to.Lang, "league_mail_result", season.N)
			for _, mv := range l.Moves {
				if mv.Member == m.Member && l.ProposedAfter == season.N {
					key := "league_moves_down"
					if mv.To < mv.From {
						key = "league_moves_up"
					}
					lm.Lines = append(lm.Lines, templates.Tf(to.Lang, key, mv.To+1))
				}
			}
		}
		if div >= 0 && div < len(rows) {
			lm.TableTitle = templates.Tf(to.Lang, "league_division", div+1)
			for _, row := range rows[div] {
				lm.Table = append(lm.Table, LeagueRow{Rank: row.Rank, Name: row.Member, Points: views.LeaguePoints(to.Lang, row.Points), Me: row.Member == m.Member})
			}
		}
	default:
		return notify.Message{}, fmt.Errorf("unknown kind of league mail %q", m.Kind)
	}
	l10n := to.Lang
	d.Greeting = greeting(l10n, to.Name)
	tok, err := c.svc.Token(linksign.PurposeLeagueMember, l.ID, idx, 0, service.OrganiserTokenTTL)
	if err != nil {
		return notify.Message{}, err
	}
	lm.PageLink, lm.PageText = c.base+"/l/"+l.ID+"?t="+tok+"&lang="+l10n, templates.T(l10n, "league_page")
	if d.UnsubURL, err = c.link("/unsubscribe", linksign.PurposeUnsubscribe, to.Email, linksign.NoSeat, 0, service.OrganiserTokenTTL, l10n); err != nil {
		return notify.Message{}, err
	}
	msg := notify.Message{ID: "league/" + l.ID + "/" + fmt.Sprint(season.N) + "/" + m.ID, To: to.Email, Subject: d.Subject,
		Unsubscribe: d.UnsubURL, Tags: map[string]string{"league": l.ID, "mail": m.Kind}}
	var html, text bytes.Buffer
	if err := templates.MailHTML().ExecuteTemplate(&html, "league", d); err != nil {
		return notify.Message{}, fmt.Errorf("compose league html: %w", err)
	}
	if err := templates.MailText().ExecuteTemplate(&text, "league", d); err != nil {
		return notify.Message{}, fmt.Errorf("compose league text: %w", err)
	}
	msg.HTML, msg.Text = html.String(), text.String()
	return msg, nil
}

// leagueConfirm writes the mail that asks the organiser (m.Member "") or
// a member who joined to confirm their address (issue 25). Anyone can
// make a league and give any address to it, so it says nothing its maker
// wrote — not the league's name, not a name, not the language they chose
// alone: the game's name, in both languages, and the link.
func (c *Composer) leagueConfirm(l *leagues.League, m leagues.Letter) (notify.Message, error) {
	to, seat, key := l.Organiser, linksign.NoSeat, "league_mail_confirm_org"
	if m.Member != "" {
		seat = slices.IndexFunc(l.Members, func(o leagues.Member) bool { return o.Name == m.Member })
		if seat < 0 {
			return notify.Message{}, fmt.Errorf("league %s letter %s: no member %q", l.ID, m.ID, m.Member)
		}
		to, key = service.Person{Email: l.Members[seat].Email, Lang: l.Members[seat].Lang}, "league_mail_confirm_member"
	}
	lang := to.Lang
	other := templates.Pick(lang, "en", "ru")
	d := Data{Lang: lang, Game: c.games.GameName(lang, l.Kind), Greeting: greeting(lang, ""),
		Subject:  templates.T(lang, "league_mail_confirm_subject"),
		Prompt:   templates.T(lang, "league_mail_confirm_not_me"),
		LinkText: templates.T(lang, "league_confirm_btn")}
	d.Text = templates.Tf(lang, key, d.Game)
	d.Others = templates.Tf(other, key, c.games.GameName(other, l.Kind)) + " " + templates.T(other, "league_mail_confirm_not_me")
	var err error
	if d.Link, err = c.link("/l/"+l.ID+"/confirm", linksign.PurposeLeagueConfirm, l.ID, seat, 0, service.ConfirmTokenTTL, lang); err != nil {
		return notify.Message{}, err
	}
	if d.UnsubURL, err = c.link("/unsubscribe", linksign.PurposeUnsubscribe, to.Email, linksign.NoSeat, 0, service.OrganiserTokenTTL, lang); err != nil {
		return notify.Message{}, err
	}
	msg := notify.Message{ID: "league/" + l.ID + "/" + m.ID, To: to.Email, Subject: d.Subject, Unsubscribe: d.UnsubURL,
		Tags: map[string]string{"league": l.ID, "mail": m.Kind}}
	var html, text bytes.Buffer
	if err := templates.MailHTML().ExecuteTemplate(&html, "confirm", d); err != nil {
		return notify.Message{}, fmt.Errorf("compose league confirmation html: %w", err)
	}
	if err := templates.MailText().ExecuteTemplate(&text, "confirm", d); err != nil {
		return notify.Message{}, fmt.Errorf("compose league confirmation text: %w", err)
	}
	msg.HTML, msg.Text = html.String(), text.String()
	return msg, nil
}

// divisionOf is the member's division in the season, -1 if none.
func divisionOf(season *leagues.Season, member string) int {
	for d, names := range season.Divisions {
		if slices.Contains(names, member) {
			return d
		}
	}
	return -1
}
