// Package businessman is the engine of «Бизнесмен»: a pure, deterministic
// state machine over plain data. Rules are cited by their RULES.md ids
// (B-…, P-…); choices where the rules are open are in DECISIONS.md beside
// this file.
package businessman

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// Name is the game's name in the service.
const Name = "businessman"

// FormatVersion is the version of the serialised state.
const FormatVersion = 1

// seating is the game's seat limits and title for engine.Table.
var seating = engine.Seating{Title: "«Бизнесмен»", Min: MinSeats, Max: MaxSeats}

// Seat limits (B-1).
const (
	MinSeats = 2
	MaxSeats = 6
)

// Rent modes (B-8).
const (
	RentAuto  = "auto"  // rent is charged as soon as a player stops on a rival's lot
	RentClaim = "claim" // the owner is asked to claim it before the next roll
)

// Options are chosen by the organiser.
type Options struct {
	// Laps ends the game when a player completes that many laps of the
	// big perimeter (B-0).
	Laps int `json:"laps"`
	// RentClaim is RentAuto (default for play by mail) or RentClaim (B-8).
	RentClaim string `json:"rent_claim"`
}

// DefaultOptions is what a game uses when the organiser says nothing.
func DefaultOptions() Options { return Options{Laps: 20, RentClaim: RentAuto} }

// Validate refuses options the engine cannot play.
func (o Options) Validate() error {
	if o.Laps < 1 || o.Laps > 200 {
		return fmt.Errorf("%w: laps must be between 1 and 200, got %d", engine.ErrBadOptions, o.Laps)
	}
	if o.RentClaim != RentAuto && o.RentClaim != RentClaim {
		return fmt.Errorf("%w: rent_claim must be %q or %q, got %q", engine.ErrBadOptions, RentAuto, RentClaim, o.RentClaim)
	}
	return nil
}

// Phase is what the game waits for.
type Phase uint8

const (
	PhRoll     Phase = iota // the turn's seat rolls, or makes deals and builds first
	PhAct                   // the turn's seat acts where it stopped, then ends the turn
	PhChoose                // the turn's seat chooses the colour of gift shares (B-10, B-24)
	PhClaim                 // the owner claims or waives rent (B-8, option "claim")
	PhOffer                 // the offered seat accepts or declines a deal (B-4, B-9)
	PhDebt                  // a seat short of cash raises it (B-19)
	PhRoulette              // the turn's seat plays the roulette (B-23)
	PhCustoms               // the turn's seat picks the shares customs sells (B-22)
	PhOver                  // the game has ended (B-0)
)

var phaseNames = [...]string{"roll", "act", "choose", "claim", "offer", "debt", "roulette", "customs", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase(%d)", p)
}

// MarshalText writes the phase by name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase name.
func (p *Phase) UnmarshalText(b []byte) error { return engine.ParseName(p, "phase", phaseNames[:], b) }

// Player is one seat. Everything but Hand is public; Hand is the seat's
// secret (B-2, P-3).
type Player struct {
	Cell     int               `json:"cell"`
	Cash     int64             `json:"cash"`
	Shares   [NumColours]int64 `json:"shares"`
	Laps     int               `json:"laps,omitempty"`     // laps of the big perimeter (B-0, B-5)
	Circuits int               `json:"circuits,omitempty"` // laps of either perimeter
	Walked   int               `json:"walked,omitempty"`   // cells walked on any track: the pledge's clock (B-27)
	Hand     [MaxHand]uint8    `json:"hand"`               // exchange card ids; the first NHand count
	NHand    int               `json:"n_hand"`
	Passes   uint8             `json:"passes,omitempty"` // kept «Сыграть на бирже» cards: bit DeckSurprise, bit DeckNotice
	Bankrupt bool              `json:"bankrupt,omitempty"`
}

// Deck is a pile of Сюрприз or Извещение cards, top first.
type Deck struct {
	Cards [16]uint8 `json:"cards"`
	N     int       `json:"n"`
}

// XDeck is a pile of undealt exchange cards, top first.
type XDeck struct {
	Cards [NumSmall]uint8 `json:"cards"`
	N     int             `json:"n"`
}

// Offer is a deal proposed by the seat whose turn it is (B-4, B-6, B-9,
// B-13), awaiting the answer of To.
type Offer struct {
	Kind   string `json:"kind"` // the action type that made it
	From   int    `json:"from"`
	To     int    `json:"to"`
	Cell   int    `json:"cell,omitempty"`  // the lot sold, bought, or given in a swap
	Other  int    `json:"other,omitempty"` // the lot taken in a swap; the colour of a share sale
	Price  int64  `json:"price,omitempty"` // paid by the buyer
	Resume Phase  `json:"resume"`
}

// Claim is rent awaiting the owner's claim (B-8, option "claim").
type Claim struct {
	Owner  int   `json:"owner"`
	Payer  int   `json:"payer"`
	Cell   int   `json:"cell"`
	Amount int64 `json:"amount"`
}

// Debt is a payment a seat could not make in cash (B-19). To is the
// creditor seat, or −1 for the bank.
type Debt struct {
	Seat   int    `json:"seat"`
	To     int    `json:"to"`
	Amount int64  `json:"amount"`
	Why    string `json:"why"`
	Cell   int    `json:"cell,omitempty"`
}

// Turn flags: what the turn's seat has already done.
const (
	usedBuy uint16 = 1 << iota
	usedCell
	usedCard
)

// State is a whole game. Treat it as a value: Apply returns a new one.
type State struct {
	engine.Table[Options]
	Phase    Phase             `json:"phase"`
	Resume   Phase             `json:"resume"` // where PhDebt returns
	Dice     [2]int            `json:"dice"`
	Spot     int               `json:"spot,omitempty"` // the cell the turn's seat acts on
	Used     uint16            `json:"used,omitempty"`
	Exch     bool              `json:"exch,omitempty"` // the exchange is open to the turn's seat (B-12)
	Bought   [NumColours]int64 `json:"bought"`         // shares bought on this exchange visit (B-13)
	Offers   int               `json:"offers,omitempty"`
	Gift     int64             `json:"gift,omitempty"` // shares to take in PhChoose
	Sell     int64             `json:"sell,omitempty"` // shares customs still sells in PhCustoms (B-22)
	RoulPos  int               `json:"roul_pos,omitempty"`
	RoulLeft int               `json:"roul_left,omitempty"`
	Players  []Player          `json:"players"`
	Owner    [NumCells]int8    `json:"owner"`  // −1: the bank's
	Level    [NumCells]uint8   `json:"level"`  // 0 none, 1 branch, 2 enterprise (B-7)
	Mort     [NumCells]int16   `json:"mort"`   // −1 free; else the owner's Walked when pledged (B-27)
	Points   [NumColours]int   `json:"points"` // the exchange board (B-13)
	Surprise Deck              `json:"surprise"`
	Notice   Deck              `json:"notice"`
	Large    XDeck             `json:"large"`
	Small    XDeck             `json:"small"`
	Offer    Offer             `json:"offer"` // rules version 2's deal, which the turn waits for
	// Deals are the open deals (rules version 3 on): offers and purchases
	// kept for later, each waiting for its seat's answer.
	engine.Deals
	Claim   Claim  `json:"claim"`
	Debts   []Debt `json:"debts,omitempty"`
	Bank    int64  `json:"bank"`             // net money the bank has paid to players
	Ending  bool   `json:"ending,omitempty"` // a player has completed Opts.Laps (B-0)
	Actions int    `json:"actions"`
	// Rules are the game's rules version's numbers: not stored, the
	// version is (engine/games sets them on making and loading a game).
	Rules Rules `json:"-"`
}

// New starts a game of seats players from options and a seed (P-1): each
// player gets 250,000 and a share of each colour (B-1), 3 large and 4 small
// exchange cards (B-2); all stand on Start (B-3); the first player is drawn.
func New(opts Options, seats int, seed [32]byte) (*State, error) {
	table, err := engine.OpenTable(FormatVersion, seating, opts, seats, seed)
	if err != nil {
		return nil, err
	}
	s := &State{Table: table, Rules: Rulebook[CurrentRules]}
	s.Players = make([]Player, seats)
	for i := range s.Owner {
		s.Owner[i] = -1
		s.Mort[i] = -1
	}
	for k := range s.Points {
		s.Points[k] = StartPoints
	}
	s.Surprise.N = len(SurpriseCards)
	for i := range s.Surprise.N {
		s.Surprise.Cards[i] = uint8(i)
	}
	s.Notice.N = len(NoticeCards)
	for i := range s.Notice.N {
		s.Notice.Cards[i] = uint8(i)
	}
	s.Large.N = NumLarge
	for i := range NumLarge {
		s.Large.Cards[i] = uint8(i)
	}
	s.Small.N = NumSmall
	for i := range NumSmall {
		s.Small.Cards[i] = uint8(NumLarge + i)
	}
	shuffle(&s.RNG, s.Surprise.Cards[:s.Surprise.N])
	shuffle(&s.RNG, s.Notice.Cards[:s.Notice.N])
	shuffle(&s.RNG, s.Large.Cards[:s.Large.N])
	shuffle(&s.RNG, s.Small.Cards[:s.Small.N])
	for i := range s.Players {
		p := &s.Players[i]
		*p = Player{Cell: CellStart, Cash: StartCash}
		for k := range p.Shares {
			p.Shares[k] = StartShares
		}
		for range LargeDealt {
			p.take(s.Large.draw())
		}
		for range SmallDealt {
			p.take(s.Small.draw())
		}
	}
	s.Turn = s.RNG.IntN(seats) // P-1, B-3: the first player is a random draw
	s.Spot = CellStart
	return s, nil
}

// shuffle is Fisher–Yates with the game's generator.
func shuffle(r *engine.RNG, a []uint8) {
	for i := len(a) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

// draw takes the top card; it returns −1 when the pile is empty.
func (d *XDeck) draw() int {
	if d.N == 0 {
		return -1
	}
	c := d.Cards[0]
	copy(d.Cards[:], d.Cards[1:d.N])
	d.N--
	d.Cards[d.N] = 0
	return int(c)
}

// put places a card at the bottom.
func (d *XDeck) put(c int) { putUnder(d.Cards[:], &d.N, c) }

// draw takes the top card and, unless keep, puts it under the pile (B-11).
func (d *Deck) draw(keep bool) int {
	c := d.Cards[0]
	copy(d.Cards[:], d.Cards[1:d.N])
	if keep {
		d.N--
		d.Cards[d.N] = 0
	} else {
		d.Cards[d.N-1] = c
	}
	return int(c)
}

// put places a card under the pile.
func (d *Deck) put(c int) { putUnder(d.Cards[:], &d.N, c) }

// putUnder places card c under a pile of *n cards, when there is room.
func putUnder(cards []uint8, n *int, c int) {
	if *n < len(cards) {
		cards[*n] = uint8(c)
		*n++
	}
}

// take adds an exchange card to the hand; a full hand or an empty pile adds nothing.
func (p *Player) take(c int) bool {
	if c < 0 || p.NHand >= MaxHand {
		return false
	}
	p.Hand[p.NHand] = uint8(c)
	p.NHand++
	return true
}

// hand is the seat's cards.
func (p *Player) hand() []uint8 { return p.Hand[:p.NHand] }

// drop removes card c from the hand.
func (p *Player) drop(c int) {
	for i := 0; i < p.NHand; i++ {
		if int(p.Hand[i]) == c {
			copy(p.Hand[i:], p.Hand[i+1:p.NHand])
			p.NHand--
			p.Hand[p.NHand] = 0
			return
		}
	}
}

// holds tells whether the hand has card c.
func (p *Player) holds(c int) bool {
	for _, h := range p.hand() {
		if int(h) == c {
			return true
		}
	}
	return false
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Players = append([]Player(nil), s.Players...)
	c.Deals = s.Deals.Clone()
	if s.Debts != nil {
		c.Debts = append([]Debt(nil), s.Debts...)
	}
	return &c
}

// Over tells whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhOver }

// Seats is the number of players.
func (s *State) Seats() int { return len(s.Players) }

func (s *State) active(seat int) bool {
	return seat >= 0 && seat < len(s.Players) && !s.Players[seat].Bankrupt
}

// owing is the seat that owes a decision now, or −1.
func (s *State) owing() int {
	switch s.Phase {
	case PhOver:
		return -1
	case PhClaim:
		return s.Claim.Owner
	case PhOffer:
		return s.Offer.To
	case PhDebt:
		return s.Debts[0].Seat
	}
	return s.Turn
}

// Owes tells whether seat owes a decision now (engine.Machine).
func (s *State) Owes(seat engine.Seat) bool { return seat >= 0 && s.owing() == seat }

// Owing lists the seats that owe a decision now (one at a time here).
func (s *State) Owing() []engine.Seat {
	if o := s.owing(); o >= 0 {
		return []engine.Seat{o}
	}
	return nil
}

// activeCount is the number of players still in the game.
func (s *State) activeCount() int {
	n := 0
	for i := range s.Players {
		if !s.Players[i].Bankrupt {
			n++
		}
	}
	return n
}

// ownsGroup tells whether seat owns every lot of group g.
func (s *State) ownsGroup(seat, g int) bool {
	if g < 0 {
		return false
	}
	for _, c := range Groups[g].Lots {
		if int(s.Owner[c]) != seat {
			return false
		}
	}
	return true
}

// rent is what a stop on cell costs (B-8): by building level, doubled for
// a whole colour; nothing on a pledged lot.
func (s *State) rent(cell int) int64 {
	c := &Board[cell]
	o := int(s.Owner[cell])
	if c.Kind != KLot || o < 0 || s.Mort[cell] >= 0 {
		return 0
	}
	r := c.Rent[s.Level[cell]]
	if s.ownsGroup(o, c.Group) {
		r *= 2
	}
	return r
}

// piecesUsed counts the branches and enterprises on the board (B-7).
func (s *State) piecesUsed() (branches, enterprises int) {
	for c := range s.Level {
		if s.Level[c] >= 1 {
			branches++
		}
		if s.Level[c] >= 2 {
			enterprises++
		}
	}
	return
}

// buildCost is the price of the next building on cell.
func buildCost(cell int, level uint8) int64 {
	if level == 0 {
		return Board[cell].Branch
	}
	return Board[cell].Enterprise
}

// sharePrice is one share of colour k at the exchange (B-13).
func (s *State) sharePrice(k int) int64 { return int64(s.Points[k]) * PointValue }

// surcharge is what a purchase costs extra abroad (B-22).
func (s *State) surcharge(seat int) int64 {
	if abroad(s.Players[seat].Cell) {
		return AbroadSurcharge
	}
	return 0
}
