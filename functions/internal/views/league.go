package views

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// LeagueRequest is what the league's pages are drawn from.
type LeagueRequest struct {
	Games   *present.Games
	Lang    string
	League  *leagues.League
	Season  *leagues.Season // nil before the first
	History []*leagues.Season
	// Member is the reader's index among the members; -1 for the
	// organiser.
	Member int
	Sign   Signer
	// Link makes a page link with a token.
	Link func(path, token string) string
}

// LeaguePage is the league's page: its divisions and their tables, the
// rounds and their games, and the ratings. It is also the JSON of GET
// /api/leagues/{id}.
type LeaguePage struct {
	// Words are what the game calls its score and cash (present.Words).
	Words      present.Words  `json:"-"`
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	Kind       string         `json:"kind"`
	Settings   string         `json:"settings"`
	Season     int            `json:"season"`
	SeasonText string         `json:"season_text"`
	Over       bool           `json:"over"`
	TieBreak   string         `json:"tie_break"`
	Divisions  []DivisionView `json:"divisions"`
	Rounds     []RoundView    `json:"rounds"`
	Ratings    []RatingView   `json:"ratings"`
	Moves      []string       `json:"moves"`
	// Me is the reader's own part, for a member.
	Me *LeagueMember `json:"me,omitempty"`
	// Organiser is the organiser's part, for them (the API's answer).
	Organiser *LeagueOrgPage `json:"organiser,omitempty"`
}

// DivisionView is one division's table and its points by round.
type DivisionView struct {
	Title string    `json:"title"`
	Rows  []RowView `json:"rows"`
	// Points is each row's member's running total after each round
	// (hundredths), rows' order, for the chart.
	Points [][]int64 `json:"points"`
}

// RowView is a line of a division's table.
type RowView struct {
	Rank     int    `json:"rank"`
	Member   string `json:"member"`
	Played   int    `json:"played"`
	Points   string `json:"points"`
	NetWorth string `json:"net_worth"`
	Note     string `json:"note,omitempty"` // how a tie was broken
	// Places is the member's place at their table in each round, "—"
	// for a round without a result; the rounds' tables link the games.
	Places string `json:"places"`
	// Games links the reader's own games (their seats), in round order.
	Games []LinkView `json:"games"`
	Me    bool       `json:"me,omitempty"`
}

// LinkView is a link with its text.
type LinkView struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// RoundView is one round: its dates, state and tables.
type RoundView struct {
	N      int         `json:"n"`
	Open   bool        `json:"open"` // started and not closed
	Title  string      `json:"title"`
	Dates  string      `json:"dates"`
	Status string      `json:"status"`
	Tables []TableView `json:"tables"`
}

// TableView is one game of a round.
type TableView struct {
	Anchor string `json:"anchor"` // the id of its place on the page
	Title  string `json:"title"`
	Seats  string `json:"seats"`
	Result string `json:"result,omitempty"`
	URL    string `json:"url,omitempty"`
}

// RatingView is a member's rating, μ ± σ.
type RatingView struct {
	Member string  `json:"member"`
	Text   string  `json:"text"`
	Mu     float64 `json:"mu"`
	Sigma  float64 `json:"sigma"`
}

// LeagueMember is a member's own part: their games in the league, their
// history and rating, and whether they leave.
type LeagueMember struct {
	Name    string     `json:"name"`
	Rating  string     `json:"rating"`
	Games   []LinkView `json:"games"`
	History []string   `json:"history"`
	Leaving bool       `json:"leaving"`
}

// LeagueView builds the league's page for a reader.
func LeagueView(req LeagueRequest) (LeaguePage, error) {
	l, lg := req.Lang, req.League
	p := LeaguePage{Words: req.Games.For(lg.Kind).Words(l), ID: lg.ID, Name: lg.Name, Kind: lg.Kind, TieBreak: templates.T(l, "league_tiebreak"),
		Settings:  templates.Tf(l, "league_settings", req.Games.GameName(l, lg.Kind), lg.TableSize, lg.Rounds, Duration(l, time.Duration(lg.DeadlineHours)*time.Hour)),
		Divisions: []DivisionView{}, Rounds: []RoundView{}, Ratings: []RatingView{}, Moves: []string{}}
	me := ""
	if req.Member >= 0 && req.Member < len(lg.Members) {
		me = lg.Members[req.Member].Name
		p.Me = &LeagueMember{Name: me, Rating: ratingText(l, lg, me), Leaving: lg.Members[req.Member].Leaving, Games: []LinkView{}, History: []string{}}
	}
	for _, m := range lg.Members {
		r, ok := lg.Ratings[m.Name]
		if !ok {
			continue
		}
		p.Ratings = append(p.Ratings, RatingView{Member: m.Name, Text: ratingText(l, lg, m.Name), Mu: r.Mu, Sigma: r.Sigma})
	}
	slices.SortStableFunc(p.Ratings, func(a, b RatingView) int {
		return -cmpFloat(a.Mu-3*a.Sigma, b.Mu-3*b.Sigma)
	})
	for _, mv := range lg.Moves {
		p.Moves = append(p.Moves, fmt.Sprintf("%s: %s → %s", mv.Member, templates.Tf(l, "league_division", mv.From+1), templates.Tf(l, "league_division", mv.To+1)))
	}
	if p.Me != nil {
		for _, s := range req.History {
			if !s.Over {
				continue
			}
			for d, rows := range s.Tables {
				for _, row := range rows {
					if row.Member == me {
						p.Me.History = append(p.Me.History, templates.Tf(l, "league_history_line", s.N, d+1, row.Rank, points(l, row.Points)))
					}
				}
			}
		}
	}
	s := req.Season
	if s == nil {
		p.SeasonText = templates.T(l, "league_no_season")
		return p, nil
	}
	p.Season, p.Over = s.N, s.Over
	p.SeasonText = templates.Tf(l, "league_season", s.N)
	if s.Over {
		p.SeasonText += ". " + templates.T(l, "league_season_over")
	}
	tables := s.Tables
	if !s.Over {
		var err error
		if tables, err = s.Standings(); err != nil {
			return p, err
		}
	}
	spectator := func(game string) string {
		tok, err := req.Sign(linksign.PurposeSpectator, game, linksign.NoSeat, service.OrganiserTokenTTL)
		if err != nil {
			return ""
		}
		return req.Link("/g/"+game, tok)
	}
	// Each game is linked once, from its round's table (the page shows
	// one round at a time); a member's row gives their places and, for
	// the reader, links to their seats: a season of 30 rounds stays light.
	places := map[string][]string{}   // member → place in each round
	seatLink := map[string]LinkView{} // the reader's game → their seat
	for _, r := range s.Rounds {
		for _, t := range r.Tables {
			for _, m := range t.Seats {
				places[m] = append(places[m], "—")
			}
			if t.Result != nil {
				for _, res := range t.Result.Results {
					if p := places[res.Member]; len(p) > 0 {
						p[len(p)-1] = fmt.Sprint(res.Place)
					}
				}
			}
			if inv := slices.Index(t.Seats, me); inv >= 0 && me != "" && t.Game != "" {
				if tok, err := req.Sign(linksign.PurposeSeat, t.Game, inv, service.SeatTokenTTL); err == nil {
					seatLink[t.Game] = LinkView{Text: fmt.Sprint(r.N), URL: req.Link("/g/"+t.Game, tok)}
				}
			}
		}
	}
	for d, rows := range tables {
		dv := DivisionView{Title: templates.Tf(l, "league_division", d+1)}
		byRound, err := s.PointsByRound(d)
		if err != nil {
			return p, err
		}
		for i, row := range rows {
			rv := RowView{Rank: row.Rank, Member: row.Member, Played: row.Played, Points: points(l, row.Points),
				NetWorth: req.Games.For(lg.Kind).Money(l, row.NetWorth), Me: row.Member == me, Games: []LinkView{}}
			rv.Note = tieNote(l, rows, i)
			rv.Places = strings.Join(places[row.Member], " · ")
			for _, g := range row.Games {
				if link, ok := seatLink[g]; ok && rv.Me {
					rv.Games = append(rv.Games, link)
				}
			}
			dv.Rows = append(dv.Rows, rv)
			dv.Points = append(dv.Points, append([]int64{0}, byRound[row.Member]...))
		}
		p.Divisions = append(p.Divisions, dv)
	}
	for _, r := range s.Rounds {
		rv := RoundView{N: r.N, Open: r.Started && !r.Closed, Title: templates.Tf(l, "league_round", r.N),
			Dates: templates.Tf(l, "league_round_dates", day(r.StartAt), day(r.CloseAt))}
		switch {
		case r.Closed:
			rv.Status = templates.T(l, "league_round_closed")
		case r.Started:
			rv.Status = templates.T(l, "league_round_open")
		default:
			rv.Status = templates.T(l, "league_round_waiting")
		}
		for ti, t := range r.Tables {
			tv := TableView{Title: templates.Tf(l, "league_division", t.Division+1) + ", " + templates.Tf(l, "league_table", ti+1),
				Seats: strings.Join(t.Seats, ", "), Anchor: fmt.Sprintf("r%d-t%d", r.N, ti+1)}
			if t.Game != "" {
				tv.URL = spectator(t.Game)
				if link, ok := seatLink[t.Game]; ok && p.Me != nil {
					p.Me.Games = append(p.Me.Games, LinkView{Text: rv.Title + ": " + tv.Seats, URL: link.URL})
				}
			}
			if t.Result != nil {
				tv.Result = resultText(l, t.Result)
				tv.Seats = "" // the result names them
			}
			rv.Tables = append(rv.Tables, tv)
		}
		p.Rounds = append(p.Rounds, rv)
	}
	return p, nil
}

// tieNote says how row i's place against its neighbours on points was
// decided, "" when its points alone did.
func tieNote(l string, rows []leaguerules.Row, i int) string {
	if rows[i].Played == 0 {
		return "" // nothing played yet: nothing decided, nothing tied
	}
	level := func(j int) bool { return j >= 0 && j < len(rows) && rows[j].Points == rows[i].Points }
	if !level(i-1) && !level(i+1) {
		return ""
	}
	shared := func(j int) bool { return level(j) && rows[j].Rank == rows[i].Rank }
	switch {
	case shared(i-1) || shared(i+1):
		return templates.T(l, "league_tied_shared")
	case (level(i-1) && rows[i-1].NetWorth == rows[i].NetWorth) || (level(i+1) && rows[i+1].NetWorth == rows[i].NetWorth):
		return templates.Tf(l, "league_tied_h2h", rows[i].HeadToHead)
	}
	return templates.T(l, "league_tied_nw")
}

// resultText is a table's result: its members by place with their points.
func resultText(l string, t *leaguerules.Table) string {
	pts, err := leaguerules.TablePoints(t.Results)
	if err != nil {
		return ""
	}
	order := slices.Clone(t.Results)
	slices.SortFunc(order, func(a, b leaguerules.Result) int { return a.Place - b.Place })
	var parts []string
	for _, r := range order {
		i := slices.IndexFunc(t.Results, func(o leaguerules.Result) bool { return o.Member == r.Member })
		parts = append(parts, fmt.Sprintf("%d. %s %s", r.Place, r.Member, points(l, pts[i])))
	}
	s := strings.Join(parts, "; ")
	if !t.Finished {
		s += " (" + templates.T(l, "league_unfinished") + ")"
	}
	return s
}

// ratingText is a member's rating as μ ± σ, "" when they have none yet.
func ratingText(l string, lg *leagues.League, member string) string {
	r, ok := lg.Ratings[member]
	if !ok {
		r = leaguerules.DefaultRatingModel().New()
	}
	s := fmt.Sprintf("%.1f ± %.1f", r.Mu, r.Sigma)
	return templates.Pick(l, strings.ReplaceAll(s, ".", ","), s)
}

// LeaguePoints writes league points (hundredths) with the language's
// decimal mark.
func LeaguePoints(l string, centi int64) string { return points(l, centi) }

func points(l string, centi int64) string {
	s := leaguerules.FormatPoints(centi)
	return templates.Pick(l, strings.ReplaceAll(s, ".", ","), s)
}

// day is a round's date, in UTC.
func day(unix int64) string { return time.Unix(unix, 0).UTC().Format("2006-01-02") }

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// LeagueOrgPage is the organiser's page: the members, the proposal to
// confirm, the substitutes, the invitation link.
type LeagueOrgPage struct {
	// Unconfirmed: the organiser has not confirmed their address yet: the
	// league mails no one and starts no season (issue 25).
	Unconfirmed bool        `json:"unconfirmed"`
	Members     []OrgMember `json:"members"`
	Proposal    [][]string  `json:"proposal"`
	CanStart    bool        `json:"can_start"`
	StartDate   string      `json:"start_date"`
	InviteURL   string      `json:"invite_url"`
	Substitutes []string    `json:"substitutes"`
	// FutureRounds are the rounds a substitute may still be seated for.
	FutureRounds []int    `json:"future_rounds"`
	Seated       []string `json:"seated"` // the members of the running season
}

// OrgMember is a member as the organiser sees them.
type OrgMember struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Lang    string `json:"lang"`
	Mail    string `json:"mail"`
	Leaving bool   `json:"leaving"`
	// Pending: the member has not confirmed their address yet; the league
	// neither mails nor seats them.
	Pending bool   `json:"pending"`
	Rating  string `json:"rating"`
	URL     string `json:"url"` // the member's page
}

// LeagueOrganiser builds the organiser's page; proposal is the next
// season's divisions (nil while a season runs).
func LeagueOrganiser(req LeagueRequest, proposal [][]string, inviteURL string, now time.Time) LeagueOrgPage {
	l, lg := req.Lang, req.League
	p := LeagueOrgPage{Proposal: proposal, CanStart: proposal != nil, InviteURL: inviteURL, Substitutes: []string{}, Members: []OrgMember{},
		StartDate: now.UTC().Add(24 * time.Hour).Format("2006-01-02")}
	for i, m := range lg.Members {
		om := OrgMember{Name: m.Name, Email: m.Email, Lang: m.Lang, Mail: m.Mail, Leaving: m.Leaving, Pending: m.Pending, Rating: ratingText(l, lg, m.Name)}
		if tok, err := req.Sign(linksign.PurposeLeagueMember, lg.ID, i, service.OrganiserTokenTTL); err == nil {
			om.URL = req.Link("/l/"+lg.ID+"/me", tok)
		}
		p.Members = append(p.Members, om)
	}
	if s := req.Season; s != nil && !s.Over {
		for _, sub := range s.Substitutes {
			p.Substitutes = append(p.Substitutes, fmt.Sprintf("%s → %s (%s)", sub.Member, sub.Person.Name, templates.Tf(l, "league_round", sub.FromRound)))
		}
		for _, r := range s.Rounds {
			if !r.Started {
				p.FutureRounds = append(p.FutureRounds, r.N)
			}
		}
		for _, div := range s.Divisions {
			p.Seated = append(p.Seated, div...)
		}
	}
	return p
}
