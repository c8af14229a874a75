package western

import "github.com/pbmgames/pbm/engine"

// View is what one seat (or a spectator) may see (P-3). In «Вестерн»
// everything is public but the sealed auction bids of the other seats.
type View struct {
	Game    string           `json:"game"`
	Seat    engine.Seat      `json:"seat"` // −1: a spectator
	Opts    Options          `json:"opts"`
	Turn    engine.Seat      `json:"turn"`
	Phase   Phase            `json:"phase"`
	Steps   int              `json:"steps,omitempty"`
	Die     int              `json:"die,omitempty"`
	Players []Player         `json:"players"`
	Owner   []int8           `json:"owner"`
	Rates   map[int]int      `json:"rates"`    // leading company cell → points
	GoodPts map[string]int   `json:"good_pts"` // good → points
	Prices  map[string]int64 `json:"good_prices"`
	Auction *AuctionView     `json:"auction,omitempty"`
	Offer   *Offer           `json:"offer,omitempty"`
	Deals   []engine.Deal    `json:"deals,omitempty"` // open deals (rules 3): public, as offers across a table are
	Owing   []engine.Seat    `json:"owing"`
	Legal   []engine.Choice  `json:"legal"`
	Scores  []engine.Score   `json:"scores"`
}

// AuctionView shows who has answered, and only the viewer's own bid.
type AuctionView struct {
	Cell     int    `json:"cell"`
	Min      int64  `json:"min"`
	Answered []bool `json:"answered"`
	MyBid    *int64 `json:"my_bid,omitempty"`
}

// View makes seat's view (engine.Spectator for a read-only one).
func (s *State) View(seat engine.Seat) View {
	v := View{
		Game: Name, Seat: seat, Opts: s.Opts, Turn: s.Turn, Phase: s.Phase, Steps: s.Steps, Die: s.Die,
		Players: append([]Player(nil), s.Players...),
		Owner:   append([]int8(nil), s.Owner[:]...),
		Rates:   map[int]int{}, GoodPts: map[string]int{}, Prices: map[string]int64{},
		Owing: s.Owing(), Legal: s.Legal(seat), Scores: s.Score(), Deals: s.OpenDeals(),
	}
	if v.Owing == nil {
		v.Owing = []engine.Seat{}
	}
	if v.Legal == nil {
		v.Legal = []engine.Choice{}
	}
	for i, c := range leading {
		v.Rates[c] = s.Rates[i]
	}
	for g := Cars; g < numGoods; g++ {
		v.GoodPts[g.String()] = s.GoodPts[g]
		v.Prices[g.String()] = s.goodPrice(g)
	}
	if s.Phase == PhAuction {
		a := &AuctionView{Cell: s.Auction.Cell, Min: s.Auction.Min, Answered: make([]bool, len(s.Players))}
		for i := range s.Players {
			a.Answered[i] = s.Auction.Bids[i] >= 0
		}
		if seat >= 0 && seat < len(s.Players) && s.Auction.Bids[seat] >= 0 {
			b := s.Auction.Bids[seat]
			a.MyBid = &b
		}
		v.Auction = a
	}
	if s.Phase == PhOffer {
		o := s.Offer
		v.Offer = &o
	}
	return v
}
