package businessman

// Tests of the places where the engine once departed from the text
// (issue 11): each quotes the sentence of businessman.ru.txt it checks.

import (
	"os"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// totalShares is how many shares seat holds in all.
func totalShares(s *State, seat int) int64 {
	var n int64
	for _, k := range s.Players[seat].Shares {
		n += k
	}
	return n
}

// B-22: «необходимо будет продать в банк половину своих акций по их
// фактической стоимости» — half of the player's shares, not half of each
// colour; the player picks which, the default sells the most-held colour.
func TestB22_CustomsSellsHalfOfAllTheShares(t *testing.T) {
	for _, tc := range []struct {
		name   string
		shares [NumColours]int64
		sell   int64
	}{
		{"one of each colour", [NumColours]int64{1, 1, 1, 1, 1, 1}, 3},
		{"an odd total rounds down", [NumColours]int64{3, 0, 2, 0, 2, 0}, 3},
		{"a single share stays", [NumColours]int64{0, 0, 1, 0, 0, 0}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fresh(t, 2)
			s.Players[0].Shares = tc.shares
			rollTo(t, s, CellCustoms)
			act(t, s, 0, engine.Action{Type: AAbroad})
			if s.Players[0].Cell != AbroadFirst {
				t.Fatalf("cell %d", s.Players[0].Cell)
			}
			before := totalShares(s, 0)
			for guard := 0; s.Phase.String() == "customs" && guard < 10; guard++ {
				if has(s.Legal(0), AEnd, 0) {
					t.Fatal("the turn may end before customs has its shares")
				}
				d, _ := s.Default(0)
				if engine.Find(s.Legal(0), d) < 0 {
					t.Fatalf("default %v not legal: %v", d, s.Legal(0))
				}
				act(t, s, 0, d)
			}
			sold := before - totalShares(s, 0)
			if before != totalShares(s, 0)+sold || totalShares(s, 0) != sumOf(tc.shares)-tc.sell {
				t.Fatalf("sold %d of %v, want %d", sumOf(tc.shares)-totalShares(s, 0), tc.shares, tc.sell)
			}
			if want := int64(StartCash - CustomsFee + tc.sell*10_000); s.Players[0].Cash != want {
				t.Fatalf("cash %d, want %d", s.Players[0].Cash, want)
			}
			if s.Phase != PhAct {
				t.Fatalf("phase %v after customs", s.Phase)
			}
		})
	}
	// The player's choice: three shares of one colour out of 1,1,1,1,1,1
	// cannot be; one each of red, green and purple can.
	s := fresh(t, 2)
	s.Players[0].Shares = [NumColours]int64{1, 1, 1, 1, 1, 1}
	rollTo(t, s, CellCustoms)
	act(t, s, 0, engine.Action{Type: AAbroad})
	refused(t, s, 0, engine.Action{Type: ASellShares, Good: "red", Amount: 2}, engine.ErrIllegalAction)
	for _, g := range []string{"red", "green", "purple"} {
		act(t, s, 0, engine.Action{Type: ASellShares, Good: g, Amount: 1})
	}
	if s.Players[0].Shares != [NumColours]int64{0, 1, 1, 0, 1, 0} || s.Phase != PhAct {
		t.Fatalf("shares %v phase %v", s.Players[0].Shares, s.Phase)
	}
	// The default sells the colour held most.
	s = fresh(t, 2)
	s.Players[0].Shares = [NumColours]int64{1, 4, 1, 0, 0, 0}
	rollTo(t, s, CellCustoms)
	act(t, s, 0, engine.Action{Type: AAbroad})
	if d, _ := s.Default(0); d.Good != "orange" || d.Amount != 3 {
		t.Fatalf("default %v", d)
	}
}

func sumOf(a [NumColours]int64) int64 {
	var n int64
	for _, k := range a {
		n += k
	}
	return n
}

// B-27: «Если пройдя полных два круга по большому и малому периметрам,
// игрок так и не выкупит свое имущество, его заберет банк» — two full
// laps (80 cells) walked after the pledge, wherever it was made.
func TestB27_PledgeLapsesAfterTwoFullLapsWhereverMade(t *testing.T) {
	walk := func(s *State, steps int) []engine.Event {
		var ev []engine.Event
		for steps > 0 {
			d := min(steps, 12)
			s.Turn, s.Phase = 0, PhRoll
			ev = append(ev, s.move(0, d, nil)...)
			s.Phase = PhAct
			steps -= d
		}
		return ev
	}
	for _, from := range []int{30, 2, 39} {
		s := fresh(t, 2)
		own(s, 0, 8)
		s.Players[0].Cell = from
		act(t, s, 0, engine.Action{Type: AMortgage, Cell: 8})
		walk(s, 79)
		if s.Owner[8] != 0 {
			t.Fatalf("pledged on %d: taken after 79 cells", from)
		}
		ev := walk(s, 1)
		if s.Owner[8] != -1 {
			t.Fatalf("pledged on %d: still owned after 80 cells", from)
		}
		if _, ok := findEvent(ev, EvForfeit, 0); !ok {
			t.Fatal("no forfeit event")
		}
	}
	// Pledged at customs just before going abroad: the small perimeter
	// counts cell by cell too; 17 cells home to 25 are not two laps.
	s := fresh(t, 2)
	own(s, 0, 8)
	s.Players[0].Cell = CellCustoms
	act(t, s, 0, engine.Action{Type: AMortgage, Cell: 8})
	s.Players[0].Cell = AbroadFirst
	walk(s, 16) // 42 … 56 and home to 25
	walk(s, 20) // 26 … 40, Start, 2 … 5
	if s.Owner[8] != 0 {
		t.Fatalf("taken after %d cells", 36)
	}
	walk(s, 44)
	if s.Owner[8] != -1 {
		t.Fatal("still owned after 80 cells")
	}
}

// B-14: «Игрок должен предъявить любую из имеющихся у него карточек» —
// on the exchange a player holding a card they can play cannot end the
// turn without playing one.
func TestB14_PlayerMustPresentACard(t *testing.T) {
	s := fresh(t, 3)
	withCard(s, cardOf(t, XSmallDown, 0, 2))
	if has(s.Legal(0), AEnd, 0) {
		t.Fatal("end offered with a card in hand on the exchange")
	}
	refused(t, s, 0, engine.Action{Type: AEnd}, engine.ErrIllegalAction)
	d, ok := s.Default(0)
	if !ok || d.Type != APlayCard {
		t.Fatalf("default %v", d)
	}
	defaults := 0
	for _, c := range s.Legal(0) {
		if c.Default {
			defaults++
			if c.Action != d {
				t.Fatalf("default marked %v, Default() %v", c.Action, d)
			}
		}
	}
	if defaults != 1 {
		t.Fatalf("%d defaults", defaults)
	}
	act(t, s, 0, d)
	if !has(s.Legal(0), AEnd, 0) {
		t.Fatal("no end after the card")
	}
	// Without a card there is nothing to present.
	s = fresh(t, 3)
	withCard(s, cardOf(t, XSmallDown, 0, 2))
	s.Players[0].NHand = 0
	if !has(s.Legal(0), AEnd, 0) {
		t.Fatal("no end with an empty hand")
	}
	// One card a visit: after it the turn may end with cards left.
	s = fresh(t, 3)
	withCard(s, cardOf(t, XSmallDown, 0, 2))
	s.Players[0].take(cardOf(t, XSmallDown, 0, 3))
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: cardOf(t, XSmallDown, 0, 2), Good: "red"})
	if !has(s.Legal(0), AEnd, 0) {
		t.Fatal("no end after one card")
	}
}

// B-19: «Выплачивать штрафы игрок должен только наличными деньгами» is
// about fines; rent is owed to a player and may be raised from shares.
func TestB19_RentMayBeRaisedFromShares(t *testing.T) {
	s := fresh(t, 3)
	own(s, 1, 13, 16, 18)
	s.Level[13] = 2
	setCash(s, 0, 1_000)
	s.Players[0].Shares = [NumColours]int64{20, 20, 20, 20, 20, 20}
	rent := s.rent(13)
	rollTo(t, s, 13)
	if s.Players[0].Bankrupt {
		t.Fatal("a player rich in shares went bankrupt over rent")
	}
	if s.Phase != PhDebt || !has(s.Legal(0), ASellShares, 0) {
		t.Fatalf("phase %v legal %v", s.Phase, s.Legal(0))
	}
	for guard := 0; s.Phase == PhDebt && guard < 20; guard++ {
		d, _ := s.Default(0)
		act(t, s, 0, d)
	}
	if s.Phase == PhDebt || s.Players[1].Cash != StartCash+rent {
		t.Fatalf("rent not paid: phase %v owner's cash %d", s.Phase, s.Players[1].Cash)
	}
	// A fine is still cash only: shares are not offered for it.
	s = fresh(t, 3)
	own(s, 0, 28)
	setCash(s, 0, 1_000)
	s.Players[0].Shares = [NumColours]int64{20, 20, 20, 20, 20, 20}
	rollTo(t, s, 33)
	if s.Phase != PhDebt || has(s.Legal(0), ASellShares, 0) {
		t.Fatalf("fine: phase %v legal %v", s.Phase, s.Legal(0))
	}
}

// B-10: «Если же вы попадете на клетку «Подарок», то получите в награду 3
// акции любого цвета» — each of the three of any colour.
func TestB10_GiftSharesOfAnyColour(t *testing.T) {
	s := fresh(t, 2)
	rollTo(t, s, 19)
	act(t, s, 0, engine.Action{Type: ATake, Good: "red", Amount: 1})
	if s.Phase != PhChoose {
		t.Fatalf("phase %v after one of three", s.Phase)
	}
	act(t, s, 0, engine.Action{Type: ATake, Good: "blue", Amount: 2})
	if s.Players[0].Shares != [NumColours]int64{2, 1, 1, 1, 3, 1} || s.Phase != PhAct {
		t.Fatalf("shares %v phase %v", s.Players[0].Shares, s.Phase)
	}
	s = fresh(t, 2)
	rollTo(t, s, 19)
	refused(t, s, 0, engine.Action{Type: ATake, Good: "red", Amount: 4}, engine.ErrIllegalAction)
	d, _ := s.Default(0)
	act(t, s, 0, d)
	if s.Players[0].Shares[0] != 4 || s.Phase != PhAct {
		t.Fatalf("default gift: %v", s.Players[0].Shares)
	}
}

// B-8: «Ее расценки указаны на самом участке. Если игрок уже собрал все
// участки одного цвета, арендная плата увеличится в 2 раза.» The printed
// rents are ours; DECISIONS.md must state the figures the code charges.
func TestB8_RentFiguresAgreeWithDecisions(t *testing.T) {
	doc, err := os.ReadFile("DECISIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, n := range []int{2, 13, 37, 55} {
		c := Board[n]
		if c.Rent != [3]int64{c.Price / 10, c.Price / 2, c.Price * 3 / 2} {
			t.Errorf("cell %d rents %v", n, c.Rent)
		}
	}
	want := "rent = 1/10 price bare, ½ price with a branch, 1½ × the price with an enterprise"
	if !strings.Contains(text, want) {
		t.Errorf("DECISIONS.md does not say %q", want)
	}
	s := fresh(t, 2)
	own(s, 1, 13, 16, 18)
	s.Level[13] = 2
	if s.rent(13) != 2*Board[13].Price*3/2 {
		t.Errorf("rent of a whole colour with an enterprise: %d", s.rent(13))
	}
}

// B-12, B-24: the text numbers only some cells («попасть на клетки 3
// (автомагистраль), 10, 25, 50 и 52»; the highway's 3rd, 5th, 6th, 8th);
// cells whose role the text gives but whose place is ours are FilledIn, as
// on «Вестерн»'s board.
func TestB12_CellsNumberedByTheTextAreTheOnlyFromRules(t *testing.T) {
	fromText := map[int]bool{CellStart: true, 10: true, 25: true, 50: true, 52: true, 63: true, 65: true, 66: true, 68: true}
	for n, c := range Board {
		if c.N == 0 {
			continue
		}
		if got := c.Source == FromRules; got != fromText[n] {
			t.Errorf("cell %d %s: source %v", n, c.RU, c.Source)
		}
	}
}

// B-20: «Банк … выдает прибыль от игры на «Бирже»; выдает выигрыши по
// акциям» — the bank pays the exchange's compensation and share winnings.
func TestB20_BankPaysExchangeAndShareWinnings(t *testing.T) {
	s := fresh(t, 3)
	withCard(s, cardOf(t, XSmallDown, 0, 4))
	s.Players[0].Shares[2] = 5
	bank, cash := s.Bank, s.Players[0].Cash
	act(t, s, 0, engine.Action{Type: APlayCard, Cell: cardOf(t, XSmallDown, 0, 4), Good: "yellow"})
	if got := s.Players[0].Cash - cash; got != 4*5*PointValue || s.Bank-bank != got {
		t.Fatalf("the bank paid %d (ledger %d), want %d", got, s.Bank-bank, 4*5*PointValue)
	}
	// «Выигрыш по акциям»: the Извещение card pays per share held.
	s = fresh(t, 3)
	s.Players[0].Shares = [NumColours]int64{2, 2, 2, 2, 2, 2}
	for i := range s.Notice.N {
		if NoticeCards[s.Notice.Cards[0]].Effect == EffDividend {
			break
		}
		s.Notice.draw(false)
		_ = i
	}
	cash, bank = s.Players[0].Cash, s.Bank
	rollTo(t, s, 7)
	if got := s.Players[0].Cash - cash; got != 12*1_000 || s.Bank-bank != got {
		t.Fatalf("share winnings %d, want 12,000", got)
	}
}

// B-23: «В рулетку можно играть неограниченное количество раз» — the
// hotel opens the roulette on every visit, with no limit over the game.
func TestB23_RouletteAnyNumberOfTimes(t *testing.T) {
	s := fresh(t, 2)
	for visit := 1; visit <= 5; visit++ {
		s.Turn = 0
		rollTo(t, s, CellHotel)
		if !has(s.Legal(0), AHotelRoulette, 0) {
			t.Fatalf("visit %d: no roulette", visit)
		}
		act(t, s, 0, engine.Action{Type: AHotelRoulette})
		for guard := 0; s.Phase == PhRoulette && guard < 10; guard++ {
			act(t, s, 0, engine.Action{Type: ASpin})
		}
		if s.Phase != PhAct {
			t.Fatalf("visit %d: phase %v", visit, s.Phase)
		}
		act(t, s, 0, engine.Action{Type: AEnd})
		finishTurn(t, s)
		setCash(s, 0, StartCash)
	}
}
