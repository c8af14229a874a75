package businessman

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

func TestB0_GameEndsAfterLapsOrWithLastPlayer(t *testing.T) {
	t.Run("laps", func(t *testing.T) {
		s := fresh(t, 3)
		s.Opts.Laps = 2
		s.Players[0].Laps = 1
		s.Players[0].Cell = 38
		rig(s, 1, 3)
		act(t, s, 0, engine.Action{Type: ARoll})
		if !s.Ending || s.Over() || s.Players[0].Laps != 2 {
			t.Fatalf("ending %v over %v laps %d", s.Ending, s.Over(), s.Players[0].Laps)
		}
		// The turn is finished first, then the game ends.
		ev := act(t, s, 0, engine.Action{Type: AEnd})
		if !s.Over() || ev[len(ev)-1].Type != engine.EvGameOver || ev[len(ev)-1].Other != engine.OverLaps {
			t.Fatalf("not over after the lap, or not for the laps: %v", ev)
		}
		setCash(s, 2, 900_000)
		sc := s.Score()
		if sc[2].Place != 1 || sc[2].NetWorth <= sc[0].NetWorth {
			t.Fatalf("highest net worth does not win: %+v", sc)
		}
		refused(t, s, 0, engine.Action{Type: ARoll}, engine.ErrGameOver)
	})
	t.Run("last player", func(t *testing.T) {
		s := fresh(t, 3)
		act(t, s, 0, engine.Action{Type: engine.Resign})
		if s.Over() || s.Turn != 1 {
			t.Fatalf("over %v turn %d", s.Over(), s.Turn)
		}
		ev := act(t, s, 1, engine.Action{Type: engine.Resign})
		if !s.Over() || ev[len(ev)-1].Type != engine.EvGameOver || ev[len(ev)-1].Other != engine.OverLastOne {
			t.Fatalf("one player left but the game goes on, or not for that reason: %v", ev)
		}
		if sc := s.Score(); sc[2].Place != 1 || !sc[0].Bankrupt || !sc[1].Bankrupt {
			t.Fatalf("score %+v", sc)
		}
	})
	t.Run("options", func(t *testing.T) {
		if d := DefaultOptions(); d.Laps != 20 || d.RentClaim != RentAuto || d.Validate() != nil {
			t.Fatalf("defaults %+v", d)
		}
		for _, o := range []Options{{Laps: 0, RentClaim: RentAuto}, {Laps: 201, RentClaim: RentAuto}, {Laps: 5, RentClaim: "maybe"}} {
			if err := o.Validate(); !errors.Is(err, engine.ErrBadOptions) {
				t.Fatalf("%+v: %v", o, err)
			}
		}
	})
}

func TestB1_PlayersSharesAndStartingCredit(t *testing.T) {
	for seats := MinSeats; seats <= MaxSeats; seats++ {
		s, err := New(DefaultOptions(), seats, [32]byte{1})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range s.Players {
			if p.Cash != 250_000 || p.Cell != CellStart {
				t.Fatalf("seat %d: cash %d cell %d", i, p.Cash, p.Cell)
			}
			for k, n := range p.Shares {
				if n != 1 {
					t.Fatalf("seat %d has %d shares of %s", i, n, Groups[k].Key)
				}
			}
		}
	}
	for _, n := range []int{0, 1, 7} {
		if _, err := New(DefaultOptions(), n, [32]byte{}); !errors.Is(err, engine.ErrBadOptions) {
			t.Fatalf("%d seats: %v", n, err)
		}
	}
}

func TestB2_ThreeLargeFourSmallCardsHidden(t *testing.T) {
	s := fresh(t, 6)
	seen := map[uint8]bool{}
	for i, p := range s.Players {
		large, small := 0, 0
		for _, c := range p.hand() {
			if seen[c] {
				t.Fatalf("card %d dealt twice", c)
			}
			seen[c] = true
			if XCards[c].Large() {
				large++
			} else {
				small++
			}
		}
		if large != 3 || small != 4 {
			t.Fatalf("seat %d: %d large, %d small", i, large, small)
		}
	}
	if s.Large.N != NumLarge-18 || s.Small.N != NumSmall-24 {
		t.Fatalf("piles left %d, %d", s.Large.N, s.Small.N)
	}
	v := s.View(2).(View)
	if len(v.Hand) != 7 || v.Players[0].Cards != 7 {
		t.Fatalf("own hand %d, others' count %d", len(v.Hand), v.Players[0].Cards)
	}
	b, _ := json.Marshal(s.View(2))
	for _, c := range s.Players[0].hand() {
		if strings.Contains(string(b), `"`+XCards[c].Code+`"`) {
			t.Fatalf("seat 2 sees seat 0's card %s", XCards[c].Code)
		}
	}
	if sp := s.View(engine.Spectator).(View); len(sp.Hand) != 0 {
		t.Fatal("a spectator sees a hand")
	}
}

func TestB3_TwoDiceSumFromStartInTurnOrder(t *testing.T) {
	firsts := map[int]bool{}
	for i := range 30 {
		s, _ := New(DefaultOptions(), 4, [32]byte{byte(i)})
		firsts[s.Turn] = true
		for _, p := range s.Players {
			if p.Cell != CellStart {
				t.Fatal("not on Start")
			}
		}
	}
	if len(firsts) < 3 {
		t.Fatalf("the first player is not drawn: %v", firsts)
	}
	s := fresh(t, 3)
	rig(s, 2, 5)
	ev := act(t, s, 0, engine.Action{Type: ARoll})
	if e, _ := findEvent(ev, EvRoll, 0); e.Cell != 2 || e.Other != 5 || s.Players[0].Cell != 8 {
		t.Fatalf("rolled %v, now on %d", e, s.Players[0].Cell)
	}
	act(t, s, 0, engine.Action{Type: AEnd})
	if s.Turn != 1 || s.Phase != PhRoll {
		t.Fatalf("turn %d phase %v", s.Turn, s.Phase)
	}
	// The next move starts where the token stopped.
	s.Players[1].Cell = 8
	rig(s, 1, 2)
	act(t, s, 1, engine.Action{Type: ARoll})
	if s.Players[1].Cell != 11 {
		t.Fatalf("on %d", s.Players[1].Cell)
	}
}

func TestB4_OffersComeFromTheTurnSeat(t *testing.T) {
	s := fresh(t, 3)
	s.Rules = Rulebook[2] // the deal the turn waits for (rules 3: deals_test.go)
	own(s, 0, 2)
	own(s, 1, 8)
	refused(t, s, 1, engine.Action{Type: AOfferSell, Cell: 8, Target: 0, Amount: 10_000}, engine.ErrNotYourTurn)
	legal := s.Legal(0)
	if !has(legal, AOfferSell, 2) || !has(legal, AOfferBuy, 8) || !has(legal, AOfferSwap, 2) {
		t.Fatalf("turn seat's offers missing: %v", legal)
	}
	act(t, s, 0, engine.Action{Type: AOfferBuy, Cell: 8, Target: 1, Amount: 45_000})
	if o := s.Owing(); len(o) != 1 || o[0] != 1 || s.Phase != PhOffer {
		t.Fatalf("owing %v phase %v", o, s.Phase)
	}
	refused(t, s, 0, engine.Action{Type: ARoll}, engine.ErrNotYourTurn)
	if d, _ := s.Default(1); d.Type != ADecline {
		t.Fatalf("default %v", d)
	}
	act(t, s, 1, engine.Action{Type: AAccept})
	if s.Owner[8] != 0 || s.Players[0].Cash != 205_000 || s.Players[1].Cash != 295_000 || s.Phase != PhRoll {
		t.Fatalf("owner %d cash %d/%d phase %v", s.Owner[8], s.Players[0].Cash, s.Players[1].Cash, s.Phase)
	}
	// At most MaxOffersPerTurn deals a turn.
	s.Offers = MaxOffersPerTurn
	if has(s.Legal(0), AOfferSell, 0) {
		t.Fatal("offers beyond the limit")
	}
}

func TestB5_PassingStartPays20000(t *testing.T) {
	s := fresh(t, 2)
	s.Players[0].Cell = 38
	rig(s, 2, 4)
	ev := act(t, s, 0, engine.Action{Type: ARoll})
	if e, ok := findEvent(ev, EvStart, 0); !ok || e.Amount != 20_000 || s.Players[0].Laps != 1 || s.Players[0].Cell != 4 {
		t.Fatalf("start event %v laps %d cell %d", e, s.Players[0].Laps, s.Players[0].Cell)
	}
	if s.Players[0].Cash != 250_000+20_000 {
		t.Fatalf("cash %d", s.Players[0].Cash)
	}
}

func TestB6_BuyFreeLotAndResell(t *testing.T) {
	s := fresh(t, 3)
	s.Rules = Rulebook[2] // the deal the turn waits for (rules 3: deals_test.go)
	rollTo(t, s, 9)
	if !has(s.Legal(0), ABuy, 9) {
		t.Fatal("cannot buy the free lot")
	}
	act(t, s, 0, engine.Action{Type: ABuy, Cell: 9})
	if s.Owner[9] != 0 || s.Players[0].Cash != 250_000-30_000 {
		t.Fatalf("owner %d cash %d", s.Owner[9], s.Players[0].Cash)
	}
	if has(s.Legal(0), ABuy, 9) {
		t.Fatal("bought twice")
	}
	// Resold with a mark-up both agree on.
	act(t, s, 0, engine.Action{Type: AOfferSell, Cell: 9, Target: 2, Amount: 41_000})
	act(t, s, 2, engine.Action{Type: AAccept})
	if s.Owner[9] != 2 || s.Players[0].Cash != 261_000 || s.Players[2].Cash != 209_000 {
		t.Fatalf("owner %d cash %d %d", s.Owner[9], s.Players[0].Cash, s.Players[2].Cash)
	}
	// A price beyond the buyer's cash is not offered.
	setCash(s, 1, 5_500)
	refused(t, s, 0, engine.Action{Type: AOfferSell, Cell: 2, Target: 1, Amount: 6_000}, engine.ErrIllegalAction)
}

func TestB7_BuildBranchThenEnterpriseOnWholeColour(t *testing.T) {
	s := fresh(t, 2)
	own(s, 0, 2, 4)
	if has(s.Legal(0), ABuild, 0) {
		t.Fatal("building without the whole colour")
	}
	own(s, 0, 6)
	act(t, s, 0, engine.Action{Type: ABuild, Cell: 2})
	if s.Level[2] != 1 || s.Players[0].Cash != 250_000-Board[2].Branch {
		t.Fatalf("level %d cash %d", s.Level[2], s.Players[0].Cash)
	}
	act(t, s, 0, engine.Action{Type: ABuild, Cell: 2})
	if s.Level[2] != 2 || s.Players[0].Cash != 250_000-Board[2].Branch-Board[2].Enterprise {
		t.Fatalf("level %d cash %d", s.Level[2], s.Players[0].Cash)
	}
	refused(t, s, 0, engine.Action{Type: ABuild, Cell: 2}, engine.ErrIllegalAction)
	// Pieces are limited: with every branch on the board, none is left.
	n := 0
	for c := 1; c < NumCells && n < Pieces.Branches-1; c++ {
		if Board[c].Kind == KLot && c != 2 && c != 4 && c != 6 {
			own(s, 1, c)
			s.Level[c] = 1
			n++
		}
	}
	if b, _ := s.piecesUsed(); b != Pieces.Branches {
		t.Fatalf("%d branches", b)
	}
	if has(s.Legal(0), ABuild, 4) {
		t.Fatal("built without a piece left")
	}
	act(t, s, 0, engine.Action{Type: ASellBuilding, Cell: 2})
	act(t, s, 0, engine.Action{Type: ASellBuilding, Cell: 2})
	if !has(s.Legal(0), ABuild, 4) {
		t.Fatal("a returned piece is not available")
	}
}

func TestB8_RentByLevelDoubledClaimOption(t *testing.T) {
	s := fresh(t, 3)
	own(s, 1, 13)
	ev := rollTo(t, s, 13)
	if e, _ := findEvent(ev, EvRent, 0); e.Amount != -Board[13].Rent[0] || s.Players[1].Cash != 250_000+Board[13].Rent[0] {
		t.Fatalf("rent %v", e)
	}
	own(s, 1, 16, 18)
	s.Level[13] = 2
	s.Turn = 0
	rollTo(t, s, 13)
	if want := 2 * Board[13].Rent[2]; s.Rent0(13) != want {
		t.Fatalf("rent of a whole colour with an enterprise %d, want %d", s.Rent0(13), want)
	}
	s.Mort[16] = 0
	if s.Rent0(16) != 0 {
		t.Fatal("rent on a pledged lot")
	}
	t.Run("claim", func(t *testing.T) {
		s := fresh(t, 3)
		s.Opts.RentClaim = RentClaim
		own(s, 2, 13)
		rollTo(t, s, 13)
		if s.Phase != PhClaim || s.Owing()[0] != 2 {
			t.Fatalf("phase %v owing %v", s.Phase, s.Owing())
		}
		refused(t, s, 0, engine.Action{Type: AEnd}, engine.ErrNotYourTurn)
		if d, _ := s.Default(2); d.Type != AClaim {
			t.Fatalf("default %v", d)
		}
		act(t, s, 2, engine.Action{Type: AClaim, Cell: 13, Target: 0})
		if s.Players[2].Cash != 254_000 || s.Phase != PhAct {
			t.Fatalf("cash %d phase %v", s.Players[2].Cash, s.Phase)
		}
		act(t, s, 0, engine.Action{Type: AEnd})
		s.Turn = 0
		rollTo(t, s, 13)
		act(t, s, 2, engine.Action{Type: AWaive, Cell: 13, Target: 0})
		if s.Players[2].Cash != 254_000 {
			t.Fatal("waived rent was paid")
		}
	})
}

// Rent0 is the rent a stop on cell costs now.
func (s *State) Rent0(cell int) int64 { return s.rent(cell) }

func TestB9_PlayersSwapAndSellLots(t *testing.T) {
	s := fresh(t, 2)
	s.Rules = Rulebook[2] // the deal the turn waits for (rules 3: deals_test.go)
	own(s, 0, 2)
	own(s, 1, 4)
	act(t, s, 0, engine.Action{Type: AOfferSwap, Cell: 2, Target: 1, Amount: 4})
	act(t, s, 1, engine.Action{Type: ADecline})
	if s.Owner[2] != 0 || s.Phase != PhRoll {
		t.Fatal("declined swap happened")
	}
	act(t, s, 0, engine.Action{Type: AOfferSwap, Cell: 2, Target: 1, Amount: 4})
	act(t, s, 1, engine.Action{Type: AAccept})
	if s.Owner[2] != 1 || s.Owner[4] != 0 {
		t.Fatalf("owners %d %d", s.Owner[2], s.Owner[4])
	}
}

func TestB10_FineWinProfitGift(t *testing.T) {
	for _, tc := range []struct {
		cell int
		want int64
	}{{5, -30_000}, {33, -30_000}, {12, 40_000}, {38, 40_000}, {27, 50_000}} {
		s := fresh(t, 2)
		rollTo(t, s, tc.cell)
		if got := s.Players[0].Cash - 250_000; got != tc.want {
			t.Fatalf("cell %d: %d, want %d", tc.cell, got, tc.want)
		}
	}
	s := fresh(t, 2)
	rollTo(t, s, 19)
	if s.Phase != PhChoose || len(s.Legal(0)) != NumColours+1 {
		t.Fatalf("phase %v legal %v", s.Phase, s.Legal(0))
	}
	act(t, s, 0, engine.Action{Type: ATake, Good: "blue", Amount: 3})
	if s.Players[0].Shares[4] != 1+3 || s.Phase != PhAct {
		t.Fatalf("shares %v", s.Players[0].Shares)
	}
}

func TestB11_SurpriseAndNoticeDecks(t *testing.T) {
	s := fresh(t, 3)
	top := s.Surprise.Cards[0]
	for SurpriseCards[top].Effect == EffPass || SurpriseCards[top].Effect == EffGoto {
		s.Surprise.draw(false)
		top = s.Surprise.Cards[0]
	}
	ev := rollTo(t, s, 17)
	if e, ok := findEvent(ev, EvCard, 0); !ok || e.Cell != DeckSurprise || e.Other != int(top) {
		t.Fatalf("drew %v, want %d", e, top)
	}
	if s.Surprise.Cards[s.Surprise.N-1] != top || s.Surprise.N != len(SurpriseCards) {
		t.Fatal("the card is not under the deck")
	}
	// «Сыграть на бирже» is kept until used, then goes under the deck.
	s = fresh(t, 3)
	for NoticeCards[s.Notice.Cards[0]].Effect != EffPass {
		s.Notice.draw(false)
	}
	rollTo(t, s, 22)
	if s.Players[0].Passes&(1<<DeckNotice) == 0 || s.Notice.N != len(NoticeCards)-1 || s.Exch {
		t.Fatalf("pass not kept: %b, %d", s.Players[0].Passes, s.Notice.N)
	}
	act(t, s, 0, engine.Action{Type: AEnd})
	s.Turn = 0
	rollTo(t, s, 9)
	act(t, s, 0, engine.Action{Type: AUsePass, Cell: DeckNotice})
	if !s.Exch || s.Players[0].Passes != 0 || s.Notice.N != len(NoticeCards) {
		t.Fatal("pass not used")
	}
	// Effects as data: every card has texts and a known effect.
	for _, d := range [][]Card{SurpriseCards, NoticeCards} {
		for _, c := range d {
			if c.RU == "" || c.EN == "" || c.Effect < EffMoney || c.Effect > EffExCard {
				t.Fatalf("card %+v", c)
			}
		}
	}
	// A card that pays each player: everyone's cash moves.
	s = fresh(t, 3)
	for SurpriseCards[s.Surprise.Cards[0]].Effect != EffEach {
		s.Surprise.draw(false)
	}
	rollTo(t, s, 17)
	if s.Players[0].Cash != 270_000 || s.Players[1].Cash != 240_000 {
		t.Fatalf("birthday: %d %d", s.Players[0].Cash, s.Players[1].Cash)
	}
}

func TestB12_WaysOntoTheExchange(t *testing.T) {
	for _, cell := range []int{10, 25, 50, 52} {
		s := fresh(t, 2)
		rollTo(t, s, cell)
		if !s.Exch || !has(s.Legal(0), ABuyShares, 0) {
			t.Fatalf("cell %d does not open the exchange", cell)
		}
	}
	s := fresh(t, 2)
	s.Players[0].Cell = HighwayIn
	rig(s, 1, 2)
	act(t, s, 0, engine.Action{Type: ARoll})
	if s.Players[0].Cell != 63 || !s.Exch {
		t.Fatal("highway cell 3 does not open the exchange")
	}
	s = fresh(t, 2)
	s.Players[0].Cell = 7
	rig(s, 3, 3)
	act(t, s, 0, engine.Action{Type: ARoll})
	if !s.Exch {
		t.Fatal("3:3 does not open the exchange")
	}
	s = fresh(t, 2)
	s.Players[0].Cell = 7
	rig(s, 2, 4)
	act(t, s, 0, engine.Action{Type: ARoll})
	if s.Exch {
		t.Fatal("2:4 opens the exchange")
	}
	s = fresh(t, 2)
	rollTo(t, s, 14)
	if s.Exch {
		t.Fatal("the broker opens the exchange for free")
	}
	act(t, s, 0, engine.Action{Type: ABroker})
	if !s.Exch || s.Players[0].Cash != 249_000 {
		t.Fatalf("broker: exch %v cash %d", s.Exch, s.Players[0].Cash)
	}
}

func TestB13_SharesOnTheExchange(t *testing.T) {
	s := fresh(t, 3)
	s.Rules = Rulebook[2] // the deal the turn waits for (rules 3: deals_test.go)
	rollTo(t, s, 10)
	if s.sharePrice(0) != 10_000 {
		t.Fatal("shares do not start at 10,000")
	}
	var max int64
	for _, c := range s.Legal(0) {
		if c.Type == ABuyShares && c.Good == "red" {
			max = c.Max
		}
	}
	if max != BuyPerVisit {
		t.Fatalf("may buy %d red", max)
	}
	act(t, s, 0, engine.Action{Type: ABuyShares, Good: "red", Amount: 3})
	refused(t, s, 0, engine.Action{Type: ABuyShares, Good: "red", Amount: 2}, engine.ErrIllegalAction)
	act(t, s, 0, engine.Action{Type: ABuyShares, Good: "red", Amount: 1})
	if s.Players[0].Shares[0] != 5 || s.Players[0].Cash != 210_000 {
		t.Fatalf("shares %d cash %d", s.Players[0].Shares[0], s.Players[0].Cash)
	}
	// Selling a share to another player.
	act(t, s, 0, engine.Action{Type: AOfferShare, Good: "red", Target: 2, Amount: 12_000})
	act(t, s, 2, engine.Action{Type: AAccept})
	if s.Players[0].Shares[0] != 4 || s.Players[2].Shares[0] != 2 || s.Players[0].Cash != 222_000 {
		t.Fatalf("share sale: %d %d %d", s.Players[0].Shares[0], s.Players[2].Shares[0], s.Players[0].Cash)
	}
}

func TestB14_CardKinds(t *testing.T) {
	large := cardOf(t, XLarge, 10, 3)
	s := fresh(t, 2)
	withCard(s, large)
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: large, Good: "green"})
	if s.Points != [NumColours]int{7, 7, 7, 20, 7, 7} || s.Players[0].NHand != 0 {
		t.Fatalf("large: %v", s.Points)
	}
	refused(t, s, 0, engine.Action{Type: APlayCard, Cell: large, Good: "green"}, engine.ErrIllegalAction)
	two := cardOf(t, XTwo, 0, 0)
	s = fresh(t, 2)
	withCard(s, two)
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: two, Good: "red", Amount: 2})
	if s.Points != [NumColours]int{20, 10, 10, 10, 10, 10} {
		t.Fatalf("double: %v", s.Points)
	}
	s = fresh(t, 2)
	withCard(s, two)
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: two, Good: "red", Amount: -2})
	if s.Points != [NumColours]int{5, 10, 10, 10, 10, 10} {
		t.Fatalf("halve: %v", s.Points)
	}
	up := cardOf(t, XSmallUp, 4, 0)
	s = fresh(t, 2)
	withCard(s, up)
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: up, Good: "blue"})
	if s.Points != [NumColours]int{6, 6, 6, 6, 14, 6} {
		t.Fatalf("small up: %v", s.Points)
	}
	down := cardOf(t, XSmallDown, 0, 3)
	s = fresh(t, 2)
	withCard(s, down)
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: down, Good: "blue"})
	if s.Points != [NumColours]int{10, 10, 10, 10, 7, 10} {
		t.Fatalf("small down: %v", s.Points)
	}
	if len(XCards) != NumLarge+NumSmall {
		t.Fatal("deck sizes")
	}
}

func TestB15_PayForRiseCompensatedForFall(t *testing.T) {
	up := cardOf(t, XSmallUp, 2, 0)
	s := fresh(t, 3)
	s.Players[0].Shares = [NumColours]int64{3, 0, 0, 0, 0, 2}
	s.Players[1].Shares = [NumColours]int64{5, 5, 5, 5, 5, 5}
	withCard(s, up)
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: up, Good: "red"})
	// +2 on 3 red shares: pays 6,000; −2 on 2 purple: receives 4,000.
	if s.Players[0].Cash != 250_000-6_000+4_000 {
		t.Fatalf("cash %d", s.Players[0].Cash)
	}
	if s.Players[1].Cash != 250_000 {
		t.Fatal("another player paid within the board")
	}
	// A rise the player cannot pay in cash is not offered.
	s = fresh(t, 2)
	s.Players[0].Shares[0] = 100
	setCash(s, 0, 1_000)
	big := cardOf(t, XLarge, 10, 2)
	withCard(s, big)
	refused(t, s, 0, engine.Action{Type: APlayCard, Cell: big, Good: "red"}, engine.ErrIllegalAction)
}

func TestB16_RaisePast25CompensatesOthers(t *testing.T) {
	big := cardOf(t, XLarge, 10, 2)
	s := fresh(t, 3)
	s.Points[0] = 23
	s.Players[0].Shares = [NumColours]int64{2, 0, 0, 0, 0, 0}
	s.Players[1].Shares = [NumColours]int64{3, 0, 0, 0, 0, 0}
	s.Players[2].Shares = [NumColours]int64{1, 0, 0, 0, 0, 0}
	withCard(s, big)
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: big, Good: "red"})
	if s.Points[0] != 25 {
		t.Fatalf("marker at %d", s.Points[0])
	}
	// 23 + 10 − 25 = 8 points a share to every other player.
	if s.Players[1].Cash != 250_000+8*1_000*3 || s.Players[2].Cash != 250_000+8*1_000*1 {
		t.Fatalf("compensation %d %d", s.Players[1].Cash, s.Players[2].Cash)
	}
	// The player pays only the real rise: 2 points on 2 shares.
	if s.Players[0].Cash != 250_000-2*1_000*2 {
		t.Fatalf("player %d", s.Players[0].Cash)
	}
}

func TestB17_LowerPast1PaysOnlyToTheFloor(t *testing.T) {
	down := cardOf(t, XSmallDown, 0, 5)
	s := fresh(t, 3)
	s.Points[0] = 3
	s.Players[0].Shares = [NumColours]int64{4, 0, 0, 0, 0, 0}
	s.Players[1].Shares = [NumColours]int64{2, 0, 0, 0, 0, 0}
	s.Players[2].Shares = [NumColours]int64{0, 0, 0, 0, 0, 0}
	withCard(s, down)
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: down, Good: "red"})
	if s.Points[0] != 1 {
		t.Fatalf("marker at %d", s.Points[0])
	}
	// 3 − 5 → 1: the player receives only 2 a share, the others pay 2 a share.
	if s.Players[0].Cash != 250_000+2*1_000*4 || s.Players[1].Cash != 250_000-2*1_000*2 || s.Players[2].Cash != 250_000 {
		t.Fatalf("cash %d %d %d", s.Players[0].Cash, s.Players[1].Cash, s.Players[2].Cash)
	}
}

func TestB18_HalvingAColourAtOne(t *testing.T) {
	two := cardOf(t, XTwo, 0, 0)
	s := fresh(t, 4)
	s.Points[2] = 1
	s.Players[0].Shares[2] = 5
	s.Players[1].Shares[2] = 3
	s.Players[2].Shares[2] = 1
	setCash(s, 2, 10_000) // cannot pay and owns nothing: bankrupt (B-28)
	s.Players[3].Shares[2] = 0
	withCard(s, two)
	ev := act(t, s, 0, engine.Action{Type: APlayCard, Cell: two, Good: "yellow", Amount: -2})
	if s.Points[2] != 1 || s.Players[0].Cash != 250_000 {
		t.Fatalf("points %d, player compensated: %d", s.Points[2], s.Players[0].Cash)
	}
	if s.Players[1].Cash != 250_000-3*50_000 || s.Players[3].Cash != 250_000 {
		t.Fatalf("others %d %d", s.Players[1].Cash, s.Players[3].Cash)
	}
	if !s.Players[2].Bankrupt {
		t.Fatal("a player who could not pay is still in")
	}
	if _, ok := findEvent(ev, EvBankrupt, 2); !ok {
		t.Fatal("no bankruptcy event")
	}
}

func TestB19_FinesInCashOnlyRaiseByPledgeOrSale(t *testing.T) {
	s := fresh(t, 2)
	setCash(s, 0, 10_000)
	s.Players[0].Shares = [NumColours]int64{9, 9, 9, 9, 9, 9}
	own(s, 0, 28, 31)
	rollTo(t, s, 33)
	if s.Phase != PhDebt || s.Owing()[0] != 0 {
		t.Fatalf("phase %v", s.Phase)
	}
	legal := s.Legal(0)
	for _, c := range legal {
		switch c.Type {
		case AMortgage, ASellBank, ASellBuilding, engine.Resign:
		default:
			t.Fatalf("%v offered to a debtor", c)
		}
	}
	if d, _ := s.Default(0); d.Type != AMortgage {
		t.Fatalf("default %v", d)
	}
	act(t, s, 0, engine.Action{Type: AMortgage, Cell: 28})
	// 10,000 + 30,000 from the pledge covers the 30,000 fine, paid at once.
	if s.Phase != PhAct || s.Players[0].Cash != 10_000 || s.Players[0].Shares[0] != 9 {
		t.Fatalf("phase %v cash %d shares %v", s.Phase, s.Players[0].Cash, s.Players[0].Shares)
	}
	// Shares do not count: with no property, a fine beyond the cash bankrupts.
	s = fresh(t, 3)
	setCash(s, 0, 10_000)
	s.Players[0].Shares = [NumColours]int64{20, 20, 20, 20, 20, 20}
	rollTo(t, s, 33)
	if !s.Players[0].Bankrupt || s.Turn != 1 || s.Phase != PhRoll {
		t.Fatalf("bankrupt %v turn %d phase %v", s.Players[0].Bankrupt, s.Turn, s.Phase)
	}
	// Selling a building to the bank raises half its cost.
	s = fresh(t, 2)
	setCash(s, 0, 0)
	own(s, 0, 2, 4, 6)
	s.Level[2], s.Level[4], s.Level[6] = 2, 1, 1
	ev := rollTo(t, s, 5)
	if _, ok := findEvent(ev, EvDebt, 0); !ok || s.Phase != PhDebt {
		t.Fatalf("no debt: %v", ev)
	}
	if has(s.Legal(0), AMortgage, 2) {
		t.Fatal("a built lot offered for pledge")
	}
	act(t, s, 0, engine.Action{Type: ASellBuilding, Cell: 2})
	if s.Players[0].Cash != Board[2].Enterprise/2 || s.Level[2] != 1 {
		t.Fatalf("cash %d", s.Players[0].Cash)
	}
}

func TestB20_TheBankDealsInSharesLoansAndTheBorder(t *testing.T) {
	s := fresh(t, 2)
	rollTo(t, s, 10)
	bank := s.Bank
	refused(t, s, 0, engine.Action{Type: ABuyShares, Good: "gold", Amount: 1}, engine.ErrIllegalAction) // gold has no shares
	act(t, s, 0, engine.Action{Type: ABuyShares, Good: "orange", Amount: 2})
	act(t, s, 0, engine.Action{Type: ASellShares, Good: "red", Amount: 1})
	if s.Players[0].Shares[1] != 3 || s.Players[0].Shares[0] != 0 || s.Bank != bank-20_000+10_000 {
		t.Fatalf("shares %v bank %d", s.Players[0].Shares, s.Bank-bank)
	}
	// The bank lends on a pledge.
	own(s, 0, 42)
	act(t, s, 0, engine.Action{Type: AMortgage, Cell: 42})
	if s.Players[0].Cash != 250_000-20_000+10_000+40_000 {
		t.Fatalf("cash %d", s.Players[0].Cash)
	}
	// The border: money abroad is the same money; from 56 the token comes
	// home to the exchange at 25.
	s = fresh(t, 2)
	s.Players[0].Cell = 54
	rig(s, 1, 3)
	act(t, s, 0, engine.Action{Type: ARoll})
	if s.Players[0].Cell != CellBorder+1 || s.Players[0].Circuits != 1 {
		t.Fatalf("cell %d circuits %d", s.Players[0].Cell, s.Players[0].Circuits)
	}
}

func TestB21_HotelOneOfThree(t *testing.T) {
	s := fresh(t, 2)
	rollTo(t, s, CellHotel)
	legal := s.Legal(0)
	if !has(legal, AHotelAbroad, 0) || !has(legal, AHotelRoulette, 0) || !has(legal, AHotelExchange, 0) {
		t.Fatalf("hotel: %v", legal)
	}
	rig(s, 2, 3)
	act(t, s, 0, engine.Action{Type: AHotelAbroad})
	if s.Spot != 45 || s.Players[0].Cell != CellHotel {
		t.Fatalf("spot %d cell %d", s.Spot, s.Players[0].Cell)
	}
	if has(s.Legal(0), AHotelRoulette, 0) {
		t.Fatal("two hotel options in one visit")
	}
	act(t, s, 0, engine.Action{Type: ABuy, Cell: 45})
	if s.Owner[45] != 0 || s.Players[0].Cash != 250_000-84_000-AbroadSurcharge {
		t.Fatalf("cash %d", s.Players[0].Cash)
	}
	s = fresh(t, 2)
	rollTo(t, s, CellHotel)
	act(t, s, 0, engine.Action{Type: AHotelExchange})
	if !s.Exch {
		t.Fatal("no exchange")
	}
	s = fresh(t, 2)
	rollTo(t, s, CellHotel)
	act(t, s, 0, engine.Action{Type: AHotelRoulette})
	rig(s, 1, 1, 1, 2, 2, 2)
	for range RoulettePlays {
		if s.Phase != PhRoulette {
			t.Fatal("fewer than three plays")
		}
		act(t, s, 0, engine.Action{Type: ASpin})
	}
	if s.Phase != PhAct {
		t.Fatal("more than three plays")
	}
}

func TestB22_CustomsAndPurchasesAbroad(t *testing.T) {
	s := fresh(t, 2)
	s.Players[0].Shares = [NumColours]int64{5, 4, 1, 0, 2, 3}
	rollTo(t, s, CellCustoms)
	act(t, s, 0, engine.Action{Type: AAbroad})
	// 10,000, and half of the 15 shares, 7, sold at 10,000 a share.
	for _, a := range []engine.Action{
		{Type: ASellShares, Good: "red", Amount: 2}, {Type: ASellShares, Good: "orange", Amount: 2},
		{Type: ASellShares, Good: "blue", Amount: 1}, {Type: ASellShares, Good: "purple", Amount: 2},
	} {
		act(t, s, 0, a)
	}
	if s.Players[0].Cell != AbroadFirst || s.Players[0].Cash != 250_000-10_000+70_000 {
		t.Fatalf("cell %d cash %d", s.Players[0].Cell, s.Players[0].Cash)
	}
	if s.Players[0].Shares != [NumColours]int64{3, 2, 1, 0, 1, 1} {
		t.Fatalf("shares %v", s.Players[0].Shares)
	}
	act(t, s, 0, engine.Action{Type: AEnd})
	finishTurn(t, s)
	rig(s, 1, 1)
	act(t, s, 0, engine.Action{Type: ARoll})
	if s.Players[0].Cell != 43 {
		t.Fatalf("cell %d", s.Players[0].Cell)
	}
	cash := s.Players[0].Cash
	act(t, s, 0, engine.Action{Type: ABuy, Cell: 43})
	if cash-s.Players[0].Cash != 80_000+5_000 {
		t.Fatalf("paid %d", cash-s.Players[0].Cash)
	}
	// Without the fee, no crossing.
	s = fresh(t, 2)
	setCash(s, 0, 9_000)
	rollTo(t, s, CellCustoms)
	if has(s.Legal(0), AAbroad, 0) {
		t.Fatal("abroad without the fee")
	}
}

func TestB23_RouletteBankAndExits(t *testing.T) {
	s := fresh(t, 2)
	rollTo(t, s, CellHotel)
	act(t, s, 0, engine.Action{Type: AHotelRoulette})
	rig(s, 5, 6) // Вход + 11 = «В банк»
	cash := s.Players[0].Cash
	act(t, s, 0, engine.Action{Type: ASpin})
	if s.Players[0].Cash-cash != 200_000 || s.Phase != PhAct {
		t.Fatalf("won %d, phase %v", s.Players[0].Cash-cash, s.Phase)
	}
	s = fresh(t, 2)
	rollTo(t, s, CellHotel)
	act(t, s, 0, engine.Action{Type: AHotelRoulette})
	if has(s.Legal(0), ALeave, 0) {
		t.Fatal("leave from Вход")
	}
	rig(s, 1, 1) // Вход + 2 = «Выход»
	act(t, s, 0, engine.Action{Type: ASpin})
	if !has(s.Legal(0), ALeave, 0) {
		t.Fatal("cannot leave on an exit")
	}
	act(t, s, 0, engine.Action{Type: ALeave})
	if s.Phase != PhAct {
		t.Fatal("still in the roulette")
	}
	// Clockwise from where the last play stopped.
	s = fresh(t, 2)
	rollTo(t, s, CellHotel)
	act(t, s, 0, engine.Action{Type: AHotelRoulette})
	rig(s, 1, 2, 1, 2)
	act(t, s, 0, engine.Action{Type: ASpin})
	act(t, s, 0, engine.Action{Type: ASpin})
	if s.RoulPos != 6 {
		t.Fatalf("at %d", s.RoulPos)
	}
}

func TestB24_Highway(t *testing.T) {
	s := fresh(t, 2)
	rollTo(t, s, CellHighway)
	act(t, s, 0, engine.Action{Type: AHighway})
	if s.Players[0].Cell != HighwayIn {
		t.Fatal("not on the highway")
	}
	for _, tc := range []struct {
		d1, d2 int
		cell   int
		cash   int64
	}{{1, 2, 63, 250_000}, {2, 3, 65, 220_000}, {3, 3, 66, 220_000}, {4, 4, 68, 125_000}, {5, 5, CellExit, 245_000}} {
		s := fresh(t, 2)
		s.Players[0].Cell = HighwayIn
		rig(s, tc.d1, tc.d2)
		act(t, s, 0, engine.Action{Type: ARoll})
		if s.Players[0].Cell != tc.cell || s.Players[0].Cash != tc.cash {
			t.Fatalf("%d+%d: cell %d cash %d", tc.d1, tc.d2, s.Players[0].Cell, s.Players[0].Cash)
		}
		if tc.cell == 63 {
			act(t, s, 0, engine.Action{Type: ATake, Good: "purple", Amount: 5})
			if s.Players[0].Shares[5] != 6 {
				t.Fatal("no 5 shares")
			}
		}
	}
}

func TestB25_Supermarket(t *testing.T) {
	s := fresh(t, 3)
	rollTo(t, s, CellSuper)
	if s.Players[0].Cash != 230_000 || !has(s.Legal(0), ABuy, CellSuper) {
		t.Fatalf("cash %d", s.Players[0].Cash)
	}
	act(t, s, 0, engine.Action{Type: ABuy, Cell: CellSuper})
	if s.Players[0].Cash != 180_000 {
		t.Fatal(s.Players[0].Cash)
	}
	act(t, s, 0, engine.Action{Type: AEnd})
	bank := s.Bank
	rollTo(t, s, CellSuper)
	if s.Players[1].Cash != 230_000 || s.Players[0].Cash != 195_000 || s.Bank != bank-5_000 {
		t.Fatalf("cash %d %d bank %d", s.Players[1].Cash, s.Players[0].Cash, s.Bank-bank)
	}
}

func TestB26_UnbuiltLotsSellAnyTimeBuildingsAtHalf(t *testing.T) {
	s := fresh(t, 2)
	own(s, 0, 2, 4, 6, 8)
	s.Level[2] = 1
	legal := s.Legal(0)
	if has(legal, AOfferSell, 2) || !has(legal, AOfferSell, 4) || !has(legal, AOfferSell, 8) {
		t.Fatalf("sales: %v", legal)
	}
	rollTo(t, s, 9)
	if !has(s.Legal(0), AOfferSell, 8) {
		t.Fatal("no sale after the roll")
	}
	act(t, s, 0, engine.Action{Type: ASellBuilding, Cell: 2})
	if s.Players[0].Cash != 250_000+Board[2].Branch/2 {
		t.Fatalf("cash %d", s.Players[0].Cash)
	}
}

func TestB27_PledgeAndTwoLapRedemption(t *testing.T) {
	s := fresh(t, 2)
	own(s, 0, 8)
	act(t, s, 0, engine.Action{Type: AMortgage, Cell: 8})
	if s.Players[0].Cash != 265_000 || s.Mort[8] != 0 {
		t.Fatal(s.Players[0].Cash)
	}
	legal := s.Legal(0)
	if has(legal, AOfferSell, 8) || has(legal, ASellBank, 8) || has(legal, AMortgage, 8) {
		t.Fatal("a pledged lot can be sold")
	}
	act(t, s, 0, engine.Action{Type: ARedeem, Cell: 8})
	if s.Players[0].Cash != 265_000-16_500 || s.Mort[8] >= 0 {
		t.Fatal(s.Players[0].Cash)
	}
	act(t, s, 0, engine.Action{Type: AMortgage, Cell: 8})
	// One lap walked: still pledged; two: the bank takes it.
	s.Players[0].Walked += BigLast
	s.Players[0].Cell = 38
	rig(s, 1, 3)
	act(t, s, 0, engine.Action{Type: ARoll})
	if s.Owner[8] != 0 {
		t.Fatal("taken after one lap")
	}
	act(t, s, 0, engine.Action{Type: AEnd})
	finishTurn(t, s)
	s.Players[0].Walked += BigLast - 8
	s.Players[0].Cell = 38
	rig(s, 1, 3)
	ev := act(t, s, 0, engine.Action{Type: ARoll})
	if s.Owner[8] != -1 || s.Mort[8] != -1 {
		t.Fatal("still owned after two laps")
	}
	if _, ok := findEvent(ev, EvForfeit, 0); !ok {
		t.Fatal("no forfeit event")
	}
}

func TestB28_BankruptcyPaysCreditorsFreesLots(t *testing.T) {
	s := fresh(t, 3)
	own(s, 1, 34, 35, 37)
	s.Level[35] = 2
	own(s, 0, 2)
	s.Mort[2] = 0
	setCash(s, 0, 5_000)
	rent := s.rent(35)
	ev := rollTo(t, s, 35)
	if !s.Players[0].Bankrupt || s.Players[1].Cash != 250_000+rent {
		t.Fatalf("bankrupt %v creditor %d, want +%d", s.Players[0].Bankrupt, s.Players[1].Cash, rent)
	}
	if e, ok := findEvent(ev, EvCreditor, 1); !ok || e.Amount != rent {
		t.Fatalf("creditor event %v", e)
	}
	if s.Owner[2] != -1 || s.Mort[2] != -1 || s.Players[0].NHand != 0 || s.Large.N != NumLarge-9+3 {
		t.Fatalf("owner %d, hand %d, large pile %d", s.Owner[2], s.Players[0].NHand, s.Large.N)
	}
	// The leaver's lot can be bought again.
	s.Turn = 2
	rollTo(t, s, 6)
	s.Players[2].Cell = 2
	s.Spot = 2
	if !has(s.Legal(2), ABuy, 2) {
		t.Fatal("the leaver's lot cannot be bought")
	}
}

func TestP1_ReplayFromSeedAndLog(t *testing.T) {
	g := playBots(t, CurrentRules, DefaultOptions(), 4, [32]byte{7, 7})
	s, err := Replay(g.Options, g.Seats, [32]byte{7, 7}, g.Log)
	if err != nil {
		t.Fatal(err)
	}
	if h := stateHash(t, s); h != g.State {
		t.Fatal("replay reaches another state")
	}
	other, _ := New(DefaultOptions(), 4, [32]byte{7, 8})
	if a, _ := New(DefaultOptions(), 4, [32]byte{7, 7}); a.Players[0].Hand == other.Players[0].Hand && a.Surprise == other.Surprise {
		t.Fatal("the seed does not drive the deal")
	}
	bad := append([]engine.Command(nil), g.Log...)
	bad[3].Action.Type = "fly"
	if _, err := Replay(g.Options, g.Seats, [32]byte{7, 7}, bad); err == nil || !strings.Contains(err.Error(), "command 3") {
		t.Fatalf("bad log: %v", err)
	}
}

func TestP2_OutOfTurnDecisionsHaveDefaults(t *testing.T) {
	s := fresh(t, 3)
	s.Opts.RentClaim = RentClaim
	own(s, 2, 13)
	rollTo(t, s, 13)
	if o := s.Owing(); len(o) != 1 || o[0] != 2 || s.Turn != 0 {
		t.Fatalf("owing %v turn %d", o, s.Turn)
	}
	d, ok := s.Default(2)
	if !ok || d.Type != AClaim {
		t.Fatal(d)
	}
	if _, ok := s.Default(0); ok {
		t.Fatal("a default for a seat that owes nothing")
	}
}

func TestP4_DefaultsAndResign(t *testing.T) {
	s := fresh(t, 3)
	s.Rules = Rulebook[2] // the deal the turn waits for (rules 3: deals_test.go)
	for _, ph := range []Phase{PhRoll, PhAct} {
		s.Phase = ph
		legal := s.Legal(0)
		last := legal[len(legal)-1]
		if last.Type != engine.Resign || last.Default {
			t.Fatalf("%v: last %v", ph, last)
		}
		d, _ := s.Default(0)
		if d.Type != map[Phase]string{PhRoll: ARoll, PhAct: AEnd}[ph] {
			t.Fatalf("%v: default %v", ph, d)
		}
	}
	// Resigning leaves the money to the bank.
	own(s, 0, 2)
	bank := s.Bank
	s.Phase = PhRoll
	ev := act(t, s, 0, engine.Action{Type: engine.Resign})
	if e, _ := findEvent(ev, engine.EvResign, 0); e.Amount != -250_000 || s.Bank != bank-250_000 || s.Owner[2] != -1 {
		t.Fatalf("resign %v", e)
	}
	// The offered seat may resign too: the deal lapses.
	s = fresh(t, 3)
	s.Rules = Rulebook[2]
	own(s, 0, 2)
	act(t, s, 0, engine.Action{Type: AOfferSell, Cell: 2, Target: 1, Amount: 1_000})
	act(t, s, 1, engine.Action{Type: engine.Resign})
	if s.Phase != PhRoll || s.Turn != 0 || s.Owner[2] != 0 {
		t.Fatalf("phase %v turn %d", s.Phase, s.Turn)
	}
}

func TestStateJSONRoundTripAndValidation(t *testing.T) {
	g := playBots(t, CurrentRules, Options{Laps: 3, RentClaim: RentClaim}, 3, [32]byte{3})
	s, _ := Replay(g.Options, g.Seats, [32]byte{3}, g.Log[:len(g.Log)/2])
	b, _ := s.Marshal()
	back, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if b2, _ := back.Marshal(); string(b2) != string(b) {
		t.Fatal("round trip differs")
	}
	for _, bad := range []string{`{"v":2}`, `{`, strings.Replace(string(b), `"v":1`, `"v":0`, 1),
		strings.Replace(string(b), `"laps":3`, `"laps":0`, 1), strings.Replace(string(b), `"turn":`, `"turn":9`, 1)} {
		if _, err := Unmarshal([]byte(bad)); err == nil {
			t.Fatalf("accepted %.60s", bad)
		}
	}
}
