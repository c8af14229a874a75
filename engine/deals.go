package engine

import "slices"

// Deal is an offer that waits for one seat's answer without stalling the
// game (SPEC §1.7, P-2): a deal another seat proposed on its turn (B-4,
// B-9, W-18), or — from the Bank — a purchase its seat chose to decide
// later (a holding it stopped on, kept for it meanwhile). Its seat
// answers it at any time while it is open, its turn or not, with
// AcceptDeal or DeclineDeal naming the deal; the turn goes on meanwhile.
// An accepted deal is carried out if it still can be (what changes hands
// is still its owner's, unbuilt and unpledged, the payer has the cash),
// else it lapses and both sides read why (EvDealLapsed). Every deal is
// opened and closed by a command of the log, so a game replays exactly.
type Deal struct {
	ID    int    `json:"id"`
	From  Seat   `json:"from"`  // the seat that proposed it, or Bank
	To    Seat   `json:"to"`    // the seat that answers
	Offer Action `json:"offer"` // what is offered: the game's own offer (or buy) action
}

// Bank is the party of a held purchase: the bank offers the holding the
// seat stopped on, at its price, until the seat answers.
const Bank Seat = -3

// The answers to a deal; Action.Deal names it.
const (
	AcceptDeal  = "accept_deal"
	DeclineDeal = "decline_deal" // the default when its deadline passes
)

// IsAnswer tells whether a is an answer to a deal: a command a seat may
// give whether or not it owes a decision.
func IsAnswer(a Action) bool { return a.Type == AcceptDeal || a.Type == DeclineDeal }

// Events of deals, every game's alike. Each carries the deal (Event.Deal)
// and moves no money itself (Amount 0: the game's own events say what
// moved when a deal is carried out); Seat is the seat the event is about.
const (
	EvDealOpen     = "deal_open"     // Seat: the proposer (for a held purchase, the seat that kept it), Other: who answers
	EvDealDone     = "deal_done"     // Seat: who accepted, Other: the proposer
	EvDealDeclined = "deal_declined" // Seat: who declined, Other: the proposer
	EvDealLapsed   = "deal_lapsed"   // Seat: who answered (−1: none), Other: why (Lapse…)
)

// Why a deal lapsed, in the Other of its EvDealLapsed.
const (
	LapseGone  = 1 + iota // what was to change hands is not its owner's to give any more (sold, built on, pledged)
	LapseCash             // the paying side has not the cash
	LapseLeft             // a side has left the game
	LapseOver             // the game is over
	LapseTaken            // a held purchase's holding is no longer free
)

// Deals are a game's open deals: its state embeds them.
type Deals struct {
	Open []Deal `json:"deals,omitempty"`
	Last int    `json:"last_deal,omitempty"` // the id of the last deal opened
}

// Clone copies the deals for a new state (Apply never changes its input).
func (d Deals) Clone() Deals {
	d.Open = slices.Clone(d.Open)
	return d
}

// OpenDeals lists the open deals, oldest first (Dealing).
func (d *Deals) OpenDeals() []Deal { return slices.Clone(d.Open) }

// Propose opens a deal and appends its EvDealOpen to ev.
func (d *Deals) Propose(from, to Seat, offer Action, ev []Event) []Event {
	d.Last++
	deal := Deal{ID: d.Last, From: from, To: to, Offer: offer}
	d.Open = append(d.Open, deal)
	seat := from
	if from == Bank {
		seat = to // the seat that kept the purchase: events name seats
	}
	return append(ev, Event{Type: EvDealOpen, Seat: seat, Other: to, Cell: offer.Cell, Deal: &deal})
}

// Take closes the open deal id and returns it.
func (d *Deals) Take(id int) (Deal, bool) {
	i := slices.IndexFunc(d.Open, func(x Deal) bool { return x.ID == id })
	if i < 0 {
		return Deal{}, false
	}
	deal := d.Open[i]
	d.Open = slices.Delete(d.Open, i, i+1)
	return deal, true
}

// Find returns the open deal id.
func (d *Deals) Find(id int) (Deal, bool) {
	i := slices.IndexFunc(d.Open, func(x Deal) bool { return x.ID == id })
	if i < 0 {
		return Deal{}, false
	}
	return d.Open[i], true
}

// Lapse closes every open deal why says lapses (why > 0) and appends an
// EvDealLapsed for each.
func (d *Deals) Lapse(why func(Deal) int, ev []Event) []Event {
	kept := d.Open[:0]
	for _, deal := range d.Open {
		if w := why(deal); w > 0 {
			deal := deal
			ev = append(ev, Event{Type: EvDealLapsed, Seat: -1, Other: w, Cell: deal.Offer.Cell, Deal: &deal})
			continue
		}
		kept = append(kept, deal)
	}
	d.Open = kept
	return ev
}

// LapseAll closes every open deal for the reason why.
func (d *Deals) LapseAll(why int, ev []Event) []Event {
	return d.Lapse(func(Deal) int { return why }, ev)
}

// Involving lapses the deals a seat that left the game (bankrupt,
// resigned) is a side of.
func (d *Deals) Involving(seat Seat, ev []Event) []Event {
	return d.Lapse(func(x Deal) int {
		if x.From == seat || x.To == seat {
			return LapseLeft
		}
		return 0
	}, ev)
}

// Count counts the open deals f says.
func (d *Deals) Count(f func(Deal) bool) int {
	n := 0
	for _, x := range d.Open {
		if f(x) {
			n++
		}
	}
	return n
}

// Holding tells whether seat keeps a purchase for later: it may keep one
// at a time, so the next purchase it cannot decide at once waits for it.
func (d *Deals) Holding(seat Seat) bool {
	return d.Count(func(x Deal) bool { return x.From == Bank && x.To == seat }) > 0
}

// HeldByOther tells whether another seat keeps cell for later: nobody
// else may buy it meanwhile.
func (d *Deals) HeldByOther(seat Seat, cell int) bool {
	return d.Count(func(x Deal) bool { return x.From == Bank && x.To != seat && x.Offer.Cell == cell }) > 0
}

// Answerable tells whether a answers a deal open to seat.
func (d *Deals) Answerable(seat Seat, a Action) bool {
	if !IsAnswer(a) || a != (Action{Type: a.Type, Deal: a.Deal}) {
		return false
	}
	deal, ok := d.Find(a.Deal)
	return ok && deal.To == seat
}

// AnswersTo lists what seat may answer the deals open to it, deal by
// deal, oldest first: decline (the default) then accept.
func AnswersTo(deals []Deal, seat Seat) []Choice {
	var out []Choice
	for _, deal := range deals {
		if deal.To == seat {
			out = append(out,
				Choice{Action: Action{Type: DeclineDeal, Deal: deal.ID}, Default: true},
				Choice{Action: Action{Type: AcceptDeal, Deal: deal.ID}})
		}
	}
	return out
}

// DealDefault is what a deal's deadline plays: declining it (P-2, P-4).
func DealDefault(d Deal) Action { return Action{Type: DeclineDeal, Deal: d.ID} }

// Declined appends the event of seat declining deal.
func Declined(deal Deal, ev []Event) []Event {
	return append(ev, Event{Type: EvDealDeclined, Seat: deal.To, Other: deal.From, Cell: deal.Offer.Cell, Deal: &deal})
}

// Done appends the event of deal accepted and carried out.
func Done(deal Deal, ev []Event) []Event {
	return append(ev, Event{Type: EvDealDone, Seat: deal.To, Other: deal.From, Cell: deal.Offer.Cell, Deal: &deal})
}

// LapseWhy is why an accepted deal cannot be carried out, or 0: gone
// (what was to change hands is no longer there to give) lapses it for
// goneWhy (LapseGone, LapseTaken), else the payer's cash short of price
// for LapseCash.
func LapseWhy(gone bool, goneWhy int, cash, price int64) int {
	switch {
	case gone:
		return goneWhy
	case cash < price:
		return LapseCash
	}
	return 0
}

// Lapsed appends the event of deal accepted but not carried out, and why.
func Lapsed(deal Deal, why int, ev []Event) []Event {
	return append(ev, Event{Type: EvDealLapsed, Seat: deal.To, Other: why, Cell: deal.Offer.Cell, Deal: &deal})
}

// Dealing is what a game whose seats make deals gives besides Game: the
// service, its bots, the standing orders and the pages ask it.
type Dealing interface {
	// Deals lists the open deals, oldest first.
	Deals() []Deal
	// DealAnswer is the answer to deal that its seat's bot gives (bot)
	// or, with orders, its standing orders give, if they cover it; the
	// answer is always one of the deal's two.
	DealAnswer(deal Deal, o Orders, bot bool) (Action, bool)
	// Preparable lists the offers seat may prepare now for its next turn:
	// those it could make then, as the game stands now.
	Preparable(seat Seat) []Choice
	// BotOffer is the offer a careful bot in seat would prepare now.
	BotOffer(seat Seat) (Action, bool)
}
