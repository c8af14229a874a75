package western

// Tests of the places where the engine once departed from the text
// (issue 11): each quotes the sentence of western.ru.txt it checks.

import (
	"os"
	"strings"
	"testing"
)

// W-33: «Но рифы (113) и экспроприация (129) отнимают всё заработанное в
// колонии» — the plantations bought there and the dividends they paid go
// too, not only the trinkets' profit and the gold.
func TestW33_ReefsTakePlantationsAndTheirDividends(t *testing.T) {
	for _, cell := range []int{113, 129} {
		s := rtGame(t, 2)
		s.Owner[115], s.Owner[cellBumper], s.Owner[35] = 0, 0, 0
		s.lap(0, nil) // opium 40,000 and «Бампер» 30,000 from the colony; the newspaper's 2,250 is not
		p := &s.Players[0]
		colony := Board[115].Profit + Board[cellBumper].Profit
		if p.ColonyCash != colony {
			t.Fatalf("colony earnings %d, want %d", p.ColonyCash, colony)
		}
		cash := p.Cash
		ev := rtLand(t, s, 0, cell)
		fee := int64(0)
		if Board[cell].Colony {
			fee = ColonyCellFee
		}
		if s.Owner[115] != -1 || s.Owner[cellBumper] != -1 {
			t.Errorf("cell %d: the colony's plantations stay: %d %d", cell, s.Owner[115], s.Owner[cellBumper])
		}
		if s.Owner[35] != 0 {
			t.Errorf("cell %d took a holding at home", cell)
		}
		if p.Cash != cash-fee-colony || rtSum(ev, 0, EvFee) != -fee-colony {
			t.Errorf("cell %d: cash %d, want %d", cell, p.Cash, cash-fee-colony)
		}
		if p.ColonyCash != 0 {
			t.Errorf("cell %d: tally %d after", cell, p.ColonyCash)
		}
	}
	// The tally outlives the island: dividends come at laps, at home.
	s := rtGame(t, 2)
	s.Players[0].ColonyCash = 5_000
	s.leave(0, 129, 130)
	if s.Players[0].ColonyCash != 5_000 {
		t.Errorf("the island forgot the colony's earnings")
	}
}

// W-10: «Газеты и телекомпании каждый круг поднимают курс ваших ведущих
// акций на пункт» — one point a lap, however many media companies.
func TestW10_MediaRaiseLeadingSharesOnePointALap(t *testing.T) {
	for _, media := range [][]int{{35}, {35, 60}, {35, 60, 84}} {
		s := rtGame(t, 2)
		s.Owner[56] = 0
		for _, m := range media {
			s.Owner[m] = 0
		}
		s.lap(0, nil)
		if s.Rates[0] != StartRate+1 {
			t.Errorf("%d media companies: rate %d, want %d", len(media), s.Rates[0], StartRate+1)
		}
	}
}

// W-8: «„Бампер“ (117) — нефтяная, прибыль 100 %» — an oil company that
// pays its profit in cash; it makes no goods (oil comes from the tanker).
func TestW8_BumperPaysProfitAndMakesNoOil(t *testing.T) {
	if Board[cellBumper].Good != NoGood {
		t.Errorf("the board says «Бампер» makes %v", Board[cellBumper].Good)
	}
	s := rtGame(t, 2)
	s.Owner[cellBumper] = 0
	ev := s.lap(0, nil)
	if s.Players[0].Goods[Oil] != 0 || rtSum(ev, 0, EvDividend) != Board[cellBumper].Price {
		t.Errorf("«Бампер»: oil %d, dividend %d", s.Players[0].Goods[Oil], rtSum(ev, 0, EvDividend))
	}
}

// W-30: «В колонию плывут морем с 48 (через бунт на корабле, пиратов и
// рифы)» — the text names the dangers, not their cost: the figures are
// ours and DECISIONS.md must state the ones the code uses.
func TestW30_MutinyAndPiratesFiguresInDecisions(t *testing.T) {
	doc, err := os.ReadFile("DECISIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	if Board[111].Amount != 1_000 {
		t.Fatalf("mutiny costs %d", Board[111].Amount)
	}
	for _, want := range []string{
		"mutiny on the ship (111) costs $1,000",
		"the pirates (112) take half the cash in hand, rounded down",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("DECISIONS.md does not say %q", want)
		}
	}
	s := rtGame(t, 2)
	s.Players[0].Cash = 10_001
	rtLand(t, s, 0, 112)
	if s.Players[0].Cash != 5_001 {
		t.Errorf("pirates left %d", s.Players[0].Cash)
	}
}
