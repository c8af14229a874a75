// Package leagues runs leagues over the pure core of package leaguerules
// (issue 14, SPEC §1 "League organisers"): a league's members and
// divisions, its seasons of rounds, the games of each round made and
// played by the game service like any other, the results, the season
// tables, promotion and relegation, and the rating across seasons. It
// knows no HTTP; its own mails are decided here and written and sent by
// the Post it is given (package compose writes them).
//
// # Items
//
// A league is kept as a few items of a store.LeagueStore, each under its
// own version (optimistic locking, as a game's item):
//
//   - "league": the league's settings and members, the ratings and which
//     rounds they include, and the next season proposed;
//   - "season/0001", "season/0002", …: one season's divisions, its rounds
//     with their dates, for each round its tables (the members in seat
//     order and the game's id) and their results, and once it is over the
//     season table of each division. The latest is the current season.
//
// A season item carries the time it next needs the clock (WakeAt): the
// next round's start, or for an open round its closing date, but no later
// than CheckEvery, when the sweep looks whether the round's games have all
// ended.
//
// # The sweep
//
// Sweep(ctx, now) reads the leagues the store says are due and, for each,
// starts the rounds whose date has come and closes those whose games are
// all over or whose closing date has passed, all in one conditional write
// of the season item. A round's games are created with an idempotency key
// made of the league, season, round and table (service.CreateRequest.Key),
// so a round started twice, or by two sweeps at once, makes each game
// once; closing writes the results with the season item's version, so of
// two sweeps closing a round at once one writes and the other, finding the
// item moved, reads it again and finds the round closed. The ratings and
// the next season's proposal then follow in the league item, which records
// the rounds its ratings include: whatever sweep gets there rates each
// round once.
//
// A game still running when its round closes is scored as it stands (the
// engine's Score: by net worth, the bankrupt last, W-40 / B-0); the game
// itself is not changed and may be played on, but its result in the
// league is the one recorded at the close.
//
// # Seats
//
// Members joined the league to play, so a round's games are made with
// every seat taken (service.CreateRequest.Seated) and start in the sweep
// that makes them: no invitation, no "accepted" mail, no confirmation of
// the organiser's address for each game (the league's own confirmations
// stand for them), and no count against the limits of new games (the
// season was counted when it started). Each member is mailed only the
// league's "your table for the new round", with the link to their seat;
// the game's organiser is not mailed its end (the league's pages show
// it). A member who vanishes keeps their seat: their deadlines play the
// default, and after MissesToBot misses in a row (the service's default, 2, unless the
// league says otherwise) a bot; their standing orders, if they set any,
// play what they cover first. A seat the game's organiser gives to a
// substitute through the game's own controls stays its member's in the
// league's results (service.Record.FirstInvite).
//
// # The league's own mails (letters.go)
//
// The start of a season, each member's table for a new round (with the
// signed link to their seat), the weekly standings and the season's
// result are Letters, put into the season item's outbox in the same
// conditional write as what they tell (StartSeason, a round started, the
// week's date passed, the season over), so each is decided once; the
// sweep then sends them through Config.Post and takes them out. A letter
// goes only to a member whose preference wants it (Wants): the round's
// table always, the rest by "all", "digest" (standings and result) or
// "turns" (nothing else). Sending is at least once, as the games'.
//
// # Who a league may mail (confirm.go, issue 25)
//
// Anyone can make a league and anyone with its invitation can give any
// address to it, so nothing is mailed on their word alone: the organiser
// confirms their address from a mail (or has confirmed it for a game)
// before the league mails a member or starts a season; a member is
// Pending, mailed nothing and seated nowhere, until they confirm from a
// mail to their address that they joined by their own hand. Those mails
// are a fixed text with none of the organiser's or members' words, one a
// day at most to an address (service.AskToConfirm), kept in the league
// item's outbox and sent as the season's letters are. Leagues made,
// members joined and seasons started count against limits per client
// and per organiser address (service.CountLeagues, CountJoins,
// CountSeasons).
//
// # Joining, leaving, substitutes
//
// A member joins by a signed link: a linksign token of purpose
// "league-invite" whose Game field holds the league's id; its page (GET)
// shows a form and changes nothing, its button (POST) adds the member
// with AddMember. The organiser's pages carry a "league-org" token, a
// member's a "league-member" token whose Seat is their index among the
// members. Leave marks a member as leaving at the season's end: the next
// season's proposal leaves them out. SeatSubstitute seats someone in a
// member's place from a round not yet started: they play the seat, the
// member keeps the points.
package leagues
