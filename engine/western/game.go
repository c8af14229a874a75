package western

import (
	"github.com/pbmgames/pbm/engine"
)

// New starts a game of seats players (W-1: each with the $50,000 loan in
// cash) from options and a seed (P-1). The first player is drawn from the
// seed.
func New(opts Options, seats int, seed [32]byte) (*State, error) {
	table, err := engine.OpenTable(FormatVersion, seating, opts, seats, seed)
	if err != nil {
		return nil, err
	}
	s := &State{Table: table, Rules: Rulebook[CurrentRules]}
	s.Players = make([]Player, seats)
	for i := range s.Players {
		s.Players[i] = Player{Cell: 1, Cash: StartLoan}
	}
	for i := range s.Owner {
		s.Owner[i] = -1
	}
	for i := range s.Rates {
		s.Rates[i] = StartRate
	}
	for g := Cars; g < numGoods; g++ {
		s.GoodPts[g] = StartRate
	}
	s.Auction.reset()
	s.Turn = s.RNG.IntN(seats) // P-1: the first player is a random draw
	return s, nil
}

func (a *Auction) reset() {
	*a = Auction{}
	for i := range a.Bids {
		a.Bids[i] = -1
	}
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Players = append([]Player(nil), s.Players...)
	return &c
}

// Over tells whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhOver }

// Seats is the number of players.
func (s *State) Seats() int { return len(s.Players) }

// active tells whether seat is still playing.
func (s *State) active(seat int) bool { return !s.Players[seat].Bankrupt }

// Owing lists the seats that owe a decision now.
func (s *State) Owing() []engine.Seat {
	switch s.Phase {
	case PhOver:
		return nil
	case PhOffer:
		return []engine.Seat{s.Offer.To}
	case PhAuction:
		var out []engine.Seat
		for i := range s.Players {
			if s.active(i) && s.Auction.Bids[i] < 0 {
				out = append(out, i)
			}
		}
		return out
	default:
		return []engine.Seat{s.Turn}
	}
}

// Owes tells whether seat owes a decision, without allocating
// (engine.Machine).
func (s *State) Owes(seat engine.Seat) bool { return s.owes(seat) }

func (s *State) owes(seat int) bool {
	switch s.Phase {
	case PhOver:
		return false
	case PhOffer:
		return seat == s.Offer.To
	case PhAuction:
		return s.active(seat) && s.Auction.Bids[seat] < 0
	default:
		return seat == s.Turn
	}
}

// shareValue is what a holding is worth: leading shares at the stock rate
// (W-9: a point is 10% of nominal), the others at par.
func (s *State) shareValue(cell int) int64 {
	c := &Board[cell]
	if i := leadIndex(cell); i >= 0 {
		return c.Price * int64(s.Rates[i]) / 10
	}
	return c.Price
}

// goodPrice is the commodity-exchange price of one unit (W-15).
func (s *State) goodPrice(g Good) int64 { return Goods[g].PerPoint * int64(s.GoodPts[g]) }

// sellable is how many units of g the markets take from seat now (W-16:
// below 0 on the labour exchange, only half of the cars and cola).
func (s *State) sellable(seat int, g Good) int64 {
	p := &s.Players[seat]
	n := p.Goods[g]
	if p.Labour < 0 && !s.Opts.Beginners && (g == Cars || g == Cola) {
		n /= 2
	}
	return n
}

// Legal lists seat's legal actions in a stable order (empty if it owes
// nothing). The first choice marked Default is what a missed deadline plays.
func (s *State) Legal(seat engine.Seat) []engine.Choice {
	return s.appendLegal(nil, seat)
}

func (s *State) appendLegal(out []engine.Choice, seat int) []engine.Choice {
	return s.appendChoices(out, seat, true)
}

// appendChoices lists seat's legal actions; without sales it leaves out the
// W-7 sales to the bank, which only a sale needs to be checked against.
func (s *State) appendChoices(out []engine.Choice, seat int, sales bool) []engine.Choice {
	if seat < 0 || seat >= len(s.Players) || !s.owes(seat) {
		return out
	}
	p := &s.Players[seat]
	switch s.Phase {
	case PhRoll:
		out = append(out, choice(engine.Action{Type: ARoll}, true))
		if sales {
			out = s.appendSales(out, seat)
		}
	case PhFork:
		for i, to := range Board[p.Cell].Next {
			if s.pathOpen(seat, p.Cell, to) {
				out = append(out, choice(engine.Action{Type: AFork, Cell: to}, i == 0))
			}
		}
		if sales {
			out = s.appendSales(out, seat)
		}
	case PhRaid:
		out = append(out,
			choice(engine.Action{Type: APrison}, true),
			choice(engine.Action{Type: ASurrender}, false))
	case PhOffer:
		out = append(out,
			choice(engine.Action{Type: ADecline}, true),
			choice(engine.Action{Type: AAccept}, false))
	case PhAuction:
		out = append(out, choice(engine.Action{Type: APass}, true))
		if p.Cash >= s.Auction.Min {
			out = append(out, ranged(engine.Action{Type: ABid, Cell: s.Auction.Cell}, s.Auction.Min, p.Cash))
		}
	case PhAct:
		out = append(out, choice(engine.Action{Type: AEnd}, true))
		out = s.appendCellActions(out, seat)
		if sales {
			out = s.appendSales(out, seat)
		}
	}
	// Whoever owes a decision may instead leave the game: a player who
	// wants no more mail, or one dropped after missed deadlines (P-4).
	return append(out, choice(engine.Action{Type: AResign}, false))
}

func choice(a engine.Action, def bool) engine.Choice { return engine.Choice{Action: a, Default: def} }

func ranged(a engine.Action, lo, hi int64) engine.Choice {
	return engine.Choice{Action: a, Min: lo, Max: hi, Step: 1}
}

// pathOpen tells whether seat may take the path from a fork to next.
func (s *State) pathOpen(seat, from, to int) bool {
	p := &s.Players[seat]
	switch {
	case Board[from].Kind == KTravel && to == Board[from].Next[1]:
		return p.Cash >= Board[from].Price // W-30: the fare to «Порт-Янки»
	case Board[from].Kind == KExpropriation && to == Board[from].Next[1]:
		return p.ColonyLaps+1 < MaxColonyLaps // W-34
	}
	return true
}

// appendSales lists W-7: any holding back to the bank at par, any moment of
// one's own turn.
func (s *State) appendSales(out []engine.Choice, seat int) []engine.Choice {
	for cell := 1; cell <= NumCells; cell++ {
		if int(s.Owner[cell]) == seat {
			out = append(out, choice(engine.Action{Type: ASell, Cell: cell}, false))
		}
	}
	return out
}

// appendCellActions lists what the cell the seat stopped on offers.
func (s *State) appendCellActions(out []engine.Choice, seat int) []engine.Choice {
	p := &s.Players[seat]
	c := &Board[p.Cell]
	switch c.Kind {
	case KHolding:
		if s.Owner[c.N] < 0 && s.Used&usedBuy == 0 && p.Cash >= c.Price {
			out = append(out, choice(engine.Action{Type: ABuy, Cell: c.N}, false))
		}
		if c.N == cellNewspaper && int(s.Owner[c.N]) == seat && s.Used&usedDrop == 0 {
			for g := Cars; g < numGoods; g++ {
				if s.GoodPts[g] > MinRate {
					out = append(out, choice(engine.Action{Type: ADropGood, Good: g.String()}, false))
				}
			}
		}
	case KBank:
		if room := CreditPerLap - p.CreditLap; room > 0 {
			out = append(out, ranged(engine.Action{Type: ACredit}, 1, room))
		}
		if p.Cash > 0 {
			out = append(out, ranged(engine.Action{Type: ADeposit}, 1, p.Cash))
		}
		if p.Deposit > 0 {
			out = append(out, ranged(engine.Action{Type: AWithdraw}, 1, p.Deposit))
		}
		if n := min(p.Credit, p.Cash); n > 0 {
			out = append(out, ranged(engine.Action{Type: ARepay}, 1, n))
		}
		if n := min(p.ColonyLoan, p.Cash); n > 0 {
			out = append(out, ranged(engine.Action{Type: ARepayLoan}, 1, n))
		}
	case KMarket:
		for g := Cars; g < numGoods; g++ {
			if n := s.sellable(seat, g); n > 0 && s.Used&usedSell(g) == 0 {
				out = append(out, ranged(engine.Action{Type: ASellGood, Good: g.String()}, 1, n))
			}
		}
	case KExchange:
		if s.Used&usedOffer == 0 {
			for cell := 1; cell <= NumCells; cell++ {
				o := int(s.Owner[cell])
				if o >= 0 && o != seat && p.Cash >= offerPrice(s.shareValue(cell)) {
					out = append(out, choice(engine.Action{Type: AOffer, Cell: cell, Target: o}, false))
				}
			}
		}
	case KSpeculation:
		for cell := 1; cell <= NumCells; cell++ {
			if int(s.Owner[cell]) == seat {
				out = append(out, choice(engine.Action{Type: ASpecSell, Cell: cell}, false))
			}
		}
	case KNarcoBuy:
		if n := min(p.Cash/c.Amount, MaxNarcoTons); n > 0 && s.Used&usedNarcoBuy == 0 {
			out = append(out, ranged(engine.Action{Type: ANarcoBuy}, 1, n))
		}
	case KNarcoSell:
		if p.Narco > 0 && s.Used&usedNarcoSell == 0 {
			out = append(out, ranged(engine.Action{Type: ANarcoSell}, 1, p.Narco))
		}
	case KBribe:
		if !p.Protected && p.Cash >= c.Price && s.Used&usedBribe == 0 {
			out = append(out, choice(engine.Action{Type: ABribe}, false))
		}
	case KColonyLoan:
		if p.ColonyLoan == 0 && p.Cash > 0 && s.Used&usedColonyLoan == 0 {
			out = append(out, choice(engine.Action{Type: AColonyLoan}, false))
		}
	case KTrinkets:
		if p.Cash >= c.Price && s.Used&usedTrinkets == 0 {
			out = append(out, choice(engine.Action{Type: ATrinkets}, false))
		}
	}
	return out
}

// offerPrice is W-18's price: one and a half times the share's price.
func offerPrice(v int64) int64 { return v * 3 / 2 }

// specPrice is W-17's price at a speculation cell.
func specPrice(v int64, mult int) int64 { return v * int64(mult) / 2 }
