package western

import (
	"github.com/pbmgames/pbm/engine"
)

// Event types of «Вестерн». Amount is signed money for the seat (+ in,
// − out) on every event that moves money; Sum of those equals the change
// of the seat's cash + deposit.
const (
	EvRoll        = "roll"        // Other: the die
	EvMove        = "move"        // Cell: where the token stopped
	EvForkAsked   = "fork_asked"  // Cell: the fork reached mid-move
	EvLap         = "lap"         // Other: laps completed
	EvIncome      = "income"      // W-3 lap income
	EvDividend    = "dividend"    // Cell: the holding
	EvProduce     = "produce"     // Cell, Good, Other: units
	EvHMM         = "hmm_share"   // W-10
	EvInterest    = "interest"    // W-12: credit interest (negative)
	EvDepositInt  = "deposit_int" // W-13 (into the deposit)
	EvRate        = "rate"        // Cell: leading company, Other: new points
	EvGoodRate    = "good_rate"   // Good, Other: new points
	EvBuy         = "buy"
	EvSell        = "sell"
	EvSpecSell    = "spec_sell"
	EvCredit      = "credit"
	EvDeposit     = "deposit" // cash into the deposit: Amount 0 money change, Other: dollars
	EvWithdraw    = "withdraw"
	EvRepay       = "repay"
	EvRepayLoan   = "repay_loan"
	EvSellGood    = "sell_good"   // Good, Other: units
	EvGoodGained  = "good_gained" // Good, Other: units
	EvGoodLost    = "good_lost"   // Good, Other: units
	EvConfiscated = "confiscated" // W-33: Cell, a colony holding back to the bank
	EvFee         = "fee"         // Cell: a cell's charge
	EvGain        = "gain"        // Cell: a cell's payout
	EvOffer       = "offer"       // Cell, Other: the offered seat (the price is in State.Offer)
	EvOfferDone   = "offer_done"  // Cell, Other: the seller; Amount: money for Seat
	EvOfferNo     = "offer_declined"
	EvAuction     = "auction"     // Cell, Other: the minimum bid
	EvBid         = "bid"         // private to the bidder: Other, the bid
	EvBidPlaced   = "bid_placed"  // public: Seat answered
	EvBidShown    = "bid_shown"   // public, once the auction closes: Seat's bid in Other (0: a pass)
	EvAuctionWon  = "auction_won" // Cell, Amount: −price
	EvAuctionNil  = "auction_unsold"
	EvNarco       = "narco" // Other: tons bought (−) or sold (+)
	EvBribe       = "bribe"
	EvPrison      = "prison" // Other: turns
	EvProtected   = "protected"
	EvSkip        = "skip"
	EvSurrender   = "surrender"
	EvLabour      = "labour" // Other: new marker
	EvForced      = "forced_sale"
	EvBankrupt    = "bankrupt"
	EvResign      = "resign" // Amount: the money left to the bank
	EvTurn        = "turn"
	EvEnd         = "game_over" // Other: why (engine.OverLaps, engine.OverLastOne)
)

// Apply is engine.Apply: the new state and the events of a legal action.
func (s *State) Apply(seat engine.Seat, a engine.Action) (*State, []engine.Event, error) {
	return engine.Apply(s, seat, a)
}

// Play is engine.Play: Apply in place, for play-outs and replays.
func (s *State) Play(seat engine.Seat, a engine.Action, ev []engine.Event) ([]engine.Event, error) {
	return engine.Play(s, seat, a, ev)
}

// Allows tells whether a is among the legal actions of seat, which owes a
// decision (engine.Machine). Only a sale lists the sales to the bank.
func (s *State) Allows(seat engine.Seat, a engine.Action) bool {
	var buf [48]engine.Choice
	return engine.Find(s.appendChoices(buf[:0], seat, a.Type == ASell), a) >= 0
}

// Do applies a legal action (engine.Machine): it checks nothing.
func (s *State) Do(seat int, a engine.Action, ev []engine.Event) []engine.Event {
	s.Actions++
	p := &s.Players[seat]
	switch a.Type {
	case ARoll:
		s.Die = s.RNG.Die()
		ev = append(ev, engine.Event{Type: EvRoll, Seat: seat, Other: s.Die})
		return s.move(seat, s.Die, 0, ev)
	case AFork:
		if Board[p.Cell].Kind == KTravel && a.Cell == Board[p.Cell].Next[1] {
			ev = s.charge(seat, Board[p.Cell].Price, EvFee, p.Cell, ev)
		}
		if Board[p.Cell].Kind == KExpropriation && a.Cell == Board[p.Cell].Next[1] {
			p.ColonyLaps++
		}
		return s.move(seat, s.Steps, a.Cell, ev)
	case ASell:
		ev = s.gain(seat, Board[a.Cell].Price, EvSell, a.Cell, ev)
		s.Owner[a.Cell] = -1
		return ev
	case ASpecSell:
		ev = s.gain(seat, specPrice(s.shareValue(a.Cell), Board[p.Cell].Mult), EvSpecSell, a.Cell, ev)
		s.Owner[a.Cell] = -1
		return s.afterAct(ev)
	case ABuy:
		s.Used |= usedBuy
		ev = s.charge(seat, Board[a.Cell].Price, EvBuy, a.Cell, ev)
		s.Owner[a.Cell] = int8(seat)
		return s.afterAct(ev)
	case ACredit:
		p.Credit += a.Amount
		p.CreditLap += a.Amount
		return s.afterAct(s.gain(seat, a.Amount, EvCredit, p.Cell, ev))
	case ADeposit:
		p.Cash -= a.Amount
		p.Deposit += a.Amount
		return s.afterAct(append(ev, engine.Event{Type: EvDeposit, Seat: seat, Cell: p.Cell, Other: int(a.Amount)}))
	case AWithdraw:
		p.Deposit -= a.Amount
		p.Cash += a.Amount
		return s.afterAct(append(ev, engine.Event{Type: EvWithdraw, Seat: seat, Cell: p.Cell, Other: int(a.Amount)}))
	case ARepay:
		p.Credit -= a.Amount
		return s.afterAct(s.charge(seat, a.Amount, EvRepay, p.Cell, ev))
	case ARepayLoan:
		p.ColonyLoan -= a.Amount
		return s.afterAct(s.charge(seat, a.Amount, EvRepayLoan, p.Cell, ev))
	case ASellGood:
		g := GoodByName(a.Good)
		s.Used |= usedSell(g)
		p.Goods[g] -= a.Amount
		ev = append(ev, engine.Event{Type: EvSellGood, Seat: seat, Good: a.Good, Other: int(a.Amount), Cell: p.Cell})
		return s.afterAct(s.gain(seat, a.Amount*s.goodPrice(g), EvGain, p.Cell, ev))
	case ADropGood:
		s.Used |= usedDrop
		g := GoodByName(a.Good)
		s.GoodPts[g] = max(MinRate, s.GoodPts[g]-NewspaperDrop)
		return s.afterAct(append(ev, engine.Event{Type: EvGoodRate, Seat: seat, Good: a.Good, Other: s.GoodPts[g]}))
	case AOffer:
		s.Used |= usedOffer
		s.Offer = Offer{Cell: a.Cell, From: seat, To: a.Target, Price: offerPrice(s.shareValue(a.Cell))}
		s.Phase = PhOffer
		return append(ev, engine.Event{Type: EvOffer, Seat: seat, Cell: a.Cell, Other: a.Target, Amount: 0})
	case AAccept:
		o := s.Offer
		s.Offer = Offer{}
		s.Players[o.From].Cash -= o.Price
		s.Players[o.To].Cash += o.Price
		s.Owner[o.Cell] = int8(o.From)
		ev = append(ev,
			engine.Event{Type: EvOfferDone, Seat: o.From, Cell: o.Cell, Other: o.To, Amount: -o.Price},
			engine.Event{Type: EvOfferDone, Seat: o.To, Cell: o.Cell, Other: o.From, Amount: o.Price})
		s.Phase = PhAct
		return s.afterAct(ev)
	case ADecline:
		o := s.Offer
		s.Offer = Offer{}
		s.Phase = PhAct
		ev = append(ev, engine.Event{Type: EvOfferNo, Seat: o.To, Cell: o.Cell, Other: o.From})
		return s.afterAct(ev)
	case ABid, APass:
		s.Auction.Bids[seat] = a.Amount // a pass is 0
		ev = append(ev,
			engine.Event{Type: EvBid, Seat: seat, Cell: s.Auction.Cell, Other: int(a.Amount), Private: true},
			engine.Event{Type: EvBidPlaced, Seat: seat, Cell: s.Auction.Cell})
		return s.settleAuction(ev)
	case ANarcoBuy:
		s.Used |= usedNarcoBuy
		p.Narco += a.Amount
		ev = append(ev, engine.Event{Type: EvNarco, Seat: seat, Cell: p.Cell, Other: int(a.Amount)})
		return s.afterAct(s.charge(seat, a.Amount*Board[p.Cell].Amount, EvFee, p.Cell, ev))
	case ANarcoSell:
		s.Used |= usedNarcoSell
		p.Narco -= a.Amount
		ev = append(ev, engine.Event{Type: EvNarco, Seat: seat, Cell: p.Cell, Other: -int(a.Amount)})
		return s.afterAct(s.loot(seat, a.Amount*Board[p.Cell].Amount, p.Cell, ev))
	case ABribe:
		s.Used |= usedBribe
		p.Protected = true
		ev = append(ev, engine.Event{Type: EvProtected, Seat: seat, Cell: p.Cell})
		return s.afterAct(s.charge(seat, Board[p.Cell].Price, EvBribe, p.Cell, ev))
	case AColonyLoan:
		s.Used |= usedColonyLoan
		loan := 2 * p.Cash
		p.ColonyLoan += loan
		return s.afterAct(s.gain(seat, loan, EvCredit, p.Cell, ev))
	case ATrinkets:
		s.Used |= usedTrinkets
		c := &Board[p.Cell]
		p.ColonyCash += c.Amount - c.Price
		ev = s.charge(seat, c.Price, EvFee, c.N, ev)
		return s.afterAct(s.gain(seat, c.Amount, EvGain, c.N, ev))
	case ASurrender:
		take := min(p.Loot, p.Cash)
		p.Loot = 0
		ev = append(ev, engine.Event{Type: EvSurrender, Seat: seat, Cell: p.Cell})
		ev = s.charge(seat, take, EvFee, p.Cell, ev)
		return s.endTurn(ev)
	case APrison:
		ev = s.imprison(seat, Board[p.Cell].Turns, ev)
		return s.endTurn(ev)
	case AEnd:
		return s.endTurn(ev)
	case AResign:
		return s.resign(seat, ev)
	}
	panic("western: unhandled legal action " + a.Type) // appendLegal and do disagree: a bug
}

// afterAct ends the turn when the stop offers nothing more to do, so a
// player is never asked only to press "end".
func (s *State) afterAct(ev []engine.Event) []engine.Event {
	if s.Phase != PhAct {
		return ev
	}
	var buf [16]engine.Choice // longer lists (speculation with many holdings) spill to the heap
	if len(s.appendCellActions(buf[:0], s.Turn)) == 0 {
		return s.endTurn(ev)
	}
	return ev
}

// move walks the token steps cells (W-2). At a fork it stops and asks,
// unless the path is already chosen (W-4).
func (s *State) move(seat, steps, chosen int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	for steps > 0 {
		next := Board[p.Cell].Next
		to := next[0]
		if len(next) > 1 {
			if chosen == 0 {
				if n := s.openPaths(seat, p.Cell); n > 1 {
					s.Phase, s.Steps = PhFork, steps
					return append(ev, engine.Event{Type: EvForkAsked, Seat: seat, Cell: p.Cell})
				}
			} else {
				to = chosen
			}
		}
		chosen = 0
		s.leave(seat, p.Cell, to)
		p.Cell = to
		steps--
		if to == 1 {
			ev = s.lap(seat, ev)
			if s.Phase == PhOver || p.Bankrupt {
				return ev
			}
		}
	}
	s.Steps = 0
	ev = append(ev, engine.Event{Type: EvMove, Seat: seat, Cell: p.Cell})
	return s.land(seat, ev)
}

// openPaths counts the paths seat may take from a fork.
func (s *State) openPaths(seat, cell int) int {
	n := 0
	for _, to := range Board[cell].Next {
		if s.pathOpen(seat, cell, to) {
			n++
		}
	}
	return n
}

// leave keeps the per-visit tallies of the slippery path and the colony.
func (s *State) leave(seat, from, to int) {
	p := &s.Players[seat]
	if Board[from].Slippy && !Board[to].Slippy {
		p.Loot = 0 // W-25: out to the red market, the loot is plain money now
	}
	if Board[to].Kind == KIsland {
		p.ColonyLaps = 0 // W-34: the colony is behind; its earnings are still the colony's (W-33)
	}
}
