// Package western is the engine of «Вестерн»: a pure, deterministic state
// machine over plain data. Rules are cited by their RULES.md ids (W-…, P-…);
// choices where the rules are open are in DECISIONS.md beside this file.
package western

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// Name is the game's name in the service.
const Name = "western"

// FormatVersion is the version of the serialised state.
const FormatVersion = 1

// seating is the game's seat limits and title for engine.Table.
var seating = engine.Seating{Title: "«Вестерн»", Min: MinSeats, Max: MaxSeats}

// Seat limits.
const (
	MinSeats = 2
	MaxSeats = 6
)

// Money and rate constants of the rules; filled-in ones are marked.
const (
	StartLoan       = 50_000    // W-1
	LapIncome       = 5_000     // W-3
	CreditPerLap    = 50_000    // W-11
	CreditRatePct   = 15        // W-12
	DepositRatePct  = 10        // W-13
	ColonyCellFee   = 200       // W-31
	TravelFee       = 500       // W-30 (also Board[57].Price)
	StartRate       = 10        // W-9: a new share starts at 10 points = par
	MinRate         = 1         // filled-in: rates never fall below 1 point
	MaxRate         = 30        // filled-in: rates never rise above 30 points
	LabourMax       = 4         // W-16
	MaxColonyLaps   = 2         // W-34
	MaxNarcoTons    = 50        // filled-in: what one visit to cell 3 can buy
	NewspaperDrop   = 2         // filled-in: points the newspaper owner drops a good by (W-15)
	ClanCap         = 1_000_000 // filled-in: the most the clan adds when it doubles cash (W-20)
	ProductionUnit  = 10_000    // W-8: one unit of product per full $10,000 of capital
	HMMSharePct     = 10        // W-10: ХММ's share of МММ's and ЭМА's profit
	cellHMM         = 10
	cellNewspaper   = 35
	cellLeadingCola = 56
	cellLeadingCars = 65
	cellBumper      = 117
)

// Options are chosen by the organiser.
type Options struct {
	// Laps is the agreed number of laps (W-0, W-40).
	Laps int `json:"laps"`
	// Beginners is the simplified variant of W-41.
	Beginners bool `json:"beginners,omitempty"`
}

// DefaultOptions is what a game uses when the organiser says nothing.
func DefaultOptions() Options { return Options{Laps: 20} }

// Validate refuses options the engine cannot play.
func (o Options) Validate() error {
	if o.Laps < 1 || o.Laps > 200 {
		return fmt.Errorf("%w: laps must be between 1 and 200, got %d", engine.ErrBadOptions, o.Laps)
	}
	return nil
}

// Phase is what the game waits for.
type Phase uint8

const (
	PhRoll    Phase = iota // the turn's seat rolls (W-2)
	PhFork                 // the turn's seat chooses a path mid-move (W-4)
	PhAct                  // the turn's seat acts on the cell it stopped on, then ends the turn
	PhRaid                 // the turn's seat chooses loot or prison (W-24)
	PhOffer                // the offered seat accepts or declines a share sale (W-18)
	PhAuction              // every seat still playing bids once, sealed (W-19)
	PhOver                 // the game has ended (W-40)
)

var phaseNames = [...]string{"roll", "fork", "act", "raid", "offer", "auction", "over"}

func (p Phase) String() string { return phaseNames[p] }

// MarshalText writes the phase by name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase name.
func (p *Phase) UnmarshalText(b []byte) error { return engine.ParseName(p, "phase", phaseNames[:], b) }

// Player is one seat's position. All of it is public in «Вестерн».
type Player struct {
	Cell       int             `json:"cell"`
	Cash       int64           `json:"cash"`
	Deposit    int64           `json:"deposit,omitempty"`
	Credit     int64           `json:"credit,omitempty"`
	CreditLap  int64           `json:"credit_lap,omitempty"`  // credit taken this lap (W-11)
	ColonyLoan int64           `json:"colony_loan,omitempty"` // interest-free (W-32)
	Laps       int             `json:"laps,omitempty"`
	Labour     int             `json:"labour,omitempty"` // −4 … +4 (W-16)
	Goods      [numGoods]int64 `json:"goods"`            // units; [0] unused
	Narco      int64           `json:"narco,omitempty"`  // tons (W-21)
	Loot       int64           `json:"loot,omitempty"`   // earned on the slippery path this visit (W-24)
	ColonyCash int64           `json:"colony_cash,omitempty"`
	ColonyGold int64           `json:"colony_gold,omitempty"` // gold dug in the colony this visit (W-33)
	ColonyLaps int             `json:"colony_laps,omitempty"`
	Skip       int             `json:"skip,omitempty"` // turns still to miss (W-22)
	Protected  bool            `json:"protected,omitempty"`
	Bankrupt   bool            `json:"bankrupt,omitempty"`
}

// Auction is the sealed-bid auction of W-19. Bids[i] is −1 until seat i has
// answered, 0 for a pass.
type Auction struct {
	Cell int             `json:"cell"`
	Min  int64           `json:"min"`
	Bids [MaxSeats]int64 `json:"bids"`
}

// Offer is a share offer of W-18, awaiting the answer of To.
type Offer struct {
	Cell  int   `json:"cell"`
	From  int   `json:"from"`
	To    int   `json:"to"`
	Price int64 `json:"price"`
}

// State is a whole game. Treat it as a value: Apply returns a new one.
type State struct {
	engine.Table[Options]
	Phase   Phase              `json:"phase"`
	Steps   int                `json:"steps,omitempty"` // steps left at a fork
	Die     int                `json:"die,omitempty"`   // last roll
	Used    uint32             `json:"used,omitempty"`  // optional cell actions already taken this stop
	Players []Player           `json:"players"`
	Owner   [NumCells + 1]int8 `json:"owner"`    // −1: the bank's
	Rates   [len(leading)]int  `json:"rates"`    // stock rate of each leading company, in points (W-9)
	GoodPts [numGoods]int      `json:"good_pts"` // commodity-exchange rates in points (W-15)
	Auction Auction            `json:"auction"`
	Offer   Offer              `json:"offer"` // rules version 2's offer, which the turn waits for
	// Deals are the open deals (rules version 3 on): W-18 offers and
	// purchases kept for later, each waiting for its seat's answer.
	engine.Deals
	Bank    int64 `json:"bank"` // net money the bank has paid to players
	Actions int   `json:"actions"`
	// Rules are the game's rules version's numbers: not stored, the
	// version is (engine/games sets them on making and loading a game).
	Rules Rules `json:"-"`
}

// leading lists the leading companies, whose shares go by the stock rate.
var leading = [...]int{cellLeadingCola, cellLeadingCars, cellBumper}

// leadIndex returns the index of cell in leading, or −1.
func leadIndex(cell int) int {
	for i, c := range leading {
		if c == cell {
			return i
		}
	}
	return -1
}

// New starts a game of seats players (W-1: each with the $50,000 loan in
// cash) from options and a seed (P-1). The first player is drawn from the
// seed.
func New(opts Options, seats int, seed [32]byte) (*State, error) {
	table, err := engine.OpenTable(FormatVersion, seating, opts, seats, seed)
	if err != nil {
		return nil, err
	}
	s := &State{Table: table, Players: make([]Player, seats), Rules: Rulebook[CurrentRules]}
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
	c.Deals = s.Deals.Clone()
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
