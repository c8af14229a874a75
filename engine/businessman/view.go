package businessman

import "github.com/pbmgames/pbm/engine"

// PlayerView is what everyone may see of a seat: not its exchange cards,
// only how many it holds (B-2, P-3).
type PlayerView struct {
	Seat     int               `json:"seat"`
	Cell     int               `json:"cell"`
	Cash     int64             `json:"cash"`
	Shares   [NumColours]int64 `json:"shares"`
	Laps     int               `json:"laps"`
	Circuits int               `json:"circuits"`
	Cards    int               `json:"cards"`
	Passes   uint8             `json:"passes,omitempty"`
	Bankrupt bool              `json:"bankrupt,omitempty"`
}

// HandCard is one of the viewer's own exchange cards.
type HandCard struct {
	ID   int    `json:"id"`
	Code string `json:"code"`
	RU   string `json:"ru"`
	EN   string `json:"en"`
}

// PropertyView is one owned lot or the supermarket.
type PropertyView struct {
	Cell    int  `json:"cell"`
	Owner   int  `json:"owner"`
	Level   int  `json:"level,omitempty"`
	Pledged bool `json:"pledged,omitempty"`
}

// View is one seat's (or a spectator's) view of the game.
type View struct {
	Seat       int             `json:"seat"`
	Turn       int             `json:"turn"`
	Phase      Phase           `json:"phase"`
	Owing      []int           `json:"owing"`
	Dice       [2]int          `json:"dice"`
	Spot       int             `json:"spot"`
	Exchange   bool            `json:"exchange_open,omitempty"`
	Points     [NumColours]int `json:"points"`
	Players    []PlayerView    `json:"players"`
	Properties []PropertyView  `json:"properties"`
	Hand       []HandCard      `json:"hand,omitempty"`
	Offer      *Offer          `json:"offer,omitempty"`
	Deals      []engine.Deal   `json:"deals,omitempty"` // open deals (rules 3): public, as offers across a table are
	Claim      *Claim          `json:"claim,omitempty"`
	Debt       *Debt           `json:"debt,omitempty"`
	Roulette   int             `json:"roulette,omitempty"`     // the roulette cell while playing
	Gift       int64           `json:"gift,omitempty"`         // shares still to take (B-10, B-24)
	Sell       int64           `json:"customs_sell,omitempty"` // shares customs still sells (B-22)
	Piles      map[string]int  `json:"piles"`
	Pieces     [2]int          `json:"pieces_left"`
	Ending     bool            `json:"ending,omitempty"`
	Laps       int             `json:"laps"`
	RentClaim  string          `json:"rent_claim"`
	Score      []engine.Score  `json:"score,omitempty"`
}

// View is what seat may see (P-3): the board and everyone's public
// position, and its own exchange cards only. engine.Spectator sees no hand.
func (s *State) View(seat engine.Seat) any {
	v := View{Seat: seat, Turn: s.Turn, Phase: s.Phase, Owing: s.Owing(), Dice: s.Dice, Spot: s.Spot,
		Exchange: s.Exch, Points: s.Points, Ending: s.Ending, Laps: s.Opts.Laps, RentClaim: s.Opts.RentClaim,
		Piles: map[string]int{"surprise": s.Surprise.N, "notice": s.Notice.N, "large": s.Large.N, "small": s.Small.N},
		Deals: s.OpenDeals()}
	for i := range s.Players {
		p := &s.Players[i]
		v.Players = append(v.Players, PlayerView{Seat: i, Cell: p.Cell, Cash: p.Cash, Shares: p.Shares, Laps: p.Laps,
			Circuits: p.Circuits, Cards: p.NHand, Passes: p.Passes, Bankrupt: p.Bankrupt})
	}
	for c := 1; c < NumCells; c++ {
		if s.Owner[c] >= 0 {
			v.Properties = append(v.Properties, PropertyView{Cell: c, Owner: int(s.Owner[c]), Level: int(s.Level[c]), Pledged: s.Mort[c] >= 0})
		}
	}
	if seat >= 0 && seat < len(s.Players) {
		for _, id := range s.Players[seat].hand() {
			c := &XCards[id]
			v.Hand = append(v.Hand, HandCard{ID: int(id), Code: c.Code, RU: c.RU, EN: c.EN})
		}
	}
	switch s.Phase {
	case PhOffer:
		o := s.Offer
		v.Offer = &o
	case PhClaim:
		c := s.Claim
		v.Claim = &c
	case PhDebt:
		d := s.Debts[0]
		v.Debt = &d
	case PhRoulette:
		v.Roulette = RouletteIn + s.RoulPos
	case PhChoose:
		v.Gift = s.Gift
	case PhCustoms:
		v.Sell = s.Sell
	case PhOver:
		v.Score = s.Score()
	}
	b, e := s.piecesUsed()
	v.Pieces = [2]int{Pieces.Branches - b, Pieces.Enterprises - e}
	return v
}
