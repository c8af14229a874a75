package western

import (
	"slices"
	"testing"
)

// cellsWhere lists the cell numbers whose cell satisfies f, in order.
func cellsWhere(f func(Cell) bool) []int {
	var ns []int
	for n := 1; n <= NumCells; n++ {
		if f(Board[n]) {
			ns = append(ns, n)
		}
	}
	return ns
}

func TestBoardCellsNamed(t *testing.T) {
	if Board[0].N != 0 || Board[0].Next != nil {
		t.Errorf("Board[0] is not the zero cell: %+v", Board[0])
	}
	for n := 1; n <= NumCells; n++ {
		c := Board[n]
		if c.N != n {
			t.Errorf("Board[%d].N = %d", n, c.N)
		}
		if c.RU == "" || c.EN == "" {
			t.Errorf("cell %d: empty name RU=%q EN=%q", n, c.RU, c.EN)
		}
		if c.Source != FromRules && c.Source != FilledIn {
			t.Errorf("cell %d: bad source %d", n, c.Source)
		}
	}
}

func TestBoardNextInRange(t *testing.T) {
	for n := 1; n <= NumCells; n++ {
		next := Board[n].Next
		if len(next) == 0 {
			t.Errorf("cell %d: no Next", n)
		}
		for _, m := range next {
			if m < 1 || m > NumCells {
				t.Errorf("cell %d: Next %d out of 1..%d", n, m, NumCells)
			}
		}
		for i := range next {
			if slices.Contains(next[i+1:], next[i]) {
				t.Errorf("cell %d: duplicate Next %v", n, next)
			}
		}
	}
}

// reach returns the cells reachable from start by following edges.
func reach(start int, edges func(n int) []int) map[int]bool {
	seen := map[int]bool{start: true}
	todo := []int{start}
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, m := range edges(n) {
			if !seen[m] {
				seen[m] = true
				todo = append(todo, m)
			}
		}
	}
	return seen
}

// rule W-2, W-3: every cell lies on a way that starts and ends at cell 1.
func TestBoardReachable(t *testing.T) {
	from1 := reach(1, func(n int) []int { return Board[n].Next })
	prev := make(map[int][]int)
	for n := 1; n <= NumCells; n++ {
		for _, m := range Board[n].Next {
			prev[m] = append(prev[m], n)
		}
	}
	to1 := reach(1, func(n int) []int { return prev[n] })
	for n := 1; n <= NumCells; n++ {
		if !from1[n] {
			t.Errorf("cell %d is not reachable from cell 1", n)
		}
		if !to1[n] {
			t.Errorf("cell %d cannot reach cell 1", n)
		}
	}
}

// rule W-4: the forks and where they lead.
func TestBoardForks(t *testing.T) {
	forks := cellsWhere(func(c Cell) bool { return len(c.Next) > 1 })
	if want := []int{5, 48, 57, 77, 100, 129}; !slices.Equal(forks, want) {
		t.Errorf("forks = %v, want %v", forks, want)
	}
	tests := []struct {
		n    int
		next []int
	}{
		{5, []int{6, 91}},    // rule W-4, W-20: business path or the slippery path
		{48, []int{49, 111}}, // rule W-4, W-30: onward, or by sea to the colony
		{57, []int{58, 114}}, // rule W-4, W-30: the travel agency to «Порт-Янки»
		{77, []int{78, 84}},  // rule W-4
		{100, []int{101, 104}},
		{129, []int{130, 111}}, // rule W-34: the desert island, or one more lap
		{110, []int{26}},       // rule W-25: out of the slippery path to the red market
		{130, []int{90}},       // rule W-34: from the island back to 90
		{90, []int{1}},         // rule W-3: the lap closes at cell 1
		{113, []int{114}},      // rule W-30: the sea route lands at «Порт-Янки»
	}
	for _, tt := range tests {
		if got := Board[tt.n].Next; !slices.Equal(got, tt.next) {
			t.Errorf("Next(%d) = %v, want %v", tt.n, got, tt.next)
		}
	}
	// Everything else is a straight line.
	for n := 1; n <= NumCells; n++ {
		if len(Board[n].Next) == 1 && n != 90 && n != 110 && n != 128 && n != 130 {
			if got := Board[n].Next[0]; got != n+1 {
				t.Errorf("Next(%d) = %d, want %d", n, got, n+1)
			}
		}
	}
	if got := Board[128].Next; !slices.Equal(got, []int{129}) {
		t.Errorf("Next(128) = %v, want [129]", got)
	}
}

// The cells whose number and role the rule text fixes.
func TestBoardFixedCells(t *testing.T) {
	tests := []struct {
		n    int
		kind CellKind
		rule string
	}{
		{1, KStart, "W-3"},            // rule W-3
		{3, KNarcoBuy, "W-21"},        // rule W-21
		{4, KBribe, "W-23"},           // rule W-23
		{8, KBank, "W-11"},            // rule W-11
		{9, KAuction, "W-19"},         // rule W-19
		{10, KHolding, "W-10"},        // rule W-10
		{14, KExchange, "W-18"},       // rule W-18
		{15, KMarket, "W-15"},         // rule W-15
		{18, KSpeculation, "W-17"},    // rule W-17
		{20, KBank, "W-11"},           // rule W-11
		{24, KSpeculation, "W-17"},    // rule W-17
		{26, KMarket, "W-25"},         // rule W-15, W-25
		{27, KBank, "W-11"},           // rule W-11
		{33, KMarket, "W-15"},         // rule W-15
		{35, KHolding, "W-15"},        // rule W-10, W-15
		{45, KBank, "W-11"},           // rule W-11
		{56, KHolding, "W-8"},         // rule W-8
		{57, KTravel, "W-30"},         // rule W-4, W-30
		{64, KExchange, "W-18"},       // rule W-18
		{65, KHolding, "W-8"},         // rule W-8
		{72, KBank, "W-11"},           // rule W-11
		{81, KSpeculation, "W-17"},    // rule W-17
		{87, KExchange, "W-18"},       // rule W-18
		{89, KTanker, "W-15"},         // rule W-15
		{91, KClan, "W-20"},           // rule W-20
		{92, KPrison, "W-22"},         // rule W-22
		{96, KPrison, "W-22"},         // rule W-22
		{101, KPrison, "W-22"},        // rule W-22
		{103, KPrison, "W-22"},        // rule W-22
		{105, KPrison, "W-22"},        // rule W-22
		{106, KGodfather, "W-24"},     // rule W-24
		{107, KPrison, "W-22"},        // rule W-22
		{110, KPrison, "W-22"},        // rule W-22
		{113, KReefs, "W-33"},         // rule W-33
		{114, KPort, "W-30"},          // rule W-30
		{117, KHolding, "W-8"},        // rule W-8
		{118, KBank, "W-11"},          // rule W-11
		{119, KColonyLoan, "W-32"},    // rule W-32
		{120, KTrinkets, "W-32"},      // rule W-32
		{121, KKlondike, "W-32"},      // rule W-15, W-32
		{129, KExpropriation, "W-33"}, // rule W-33, W-34
		{130, KIsland, "W-34"},        // rule W-34
	}
	for _, tt := range tests {
		c := Board[tt.n]
		if c.Kind != tt.kind {
			t.Errorf("%s: cell %d kind = %d, want %d", tt.rule, tt.n, c.Kind, tt.kind)
		}
	}
	for _, n := range []int{1, 3, 4, 5, 8, 9, 10, 14, 15, 18, 20, 24, 26, 27, 33, 35, 45, 48, 56, 57,
		64, 65, 72, 77, 81, 87, 89, 91, 92, 96, 100, 101, 103, 105, 106, 107, 110, 113, 117, 118, 129} {
		if Board[n].Source != FromRules {
			t.Errorf("cell %d: source %v, want rules", n, Board[n].Source)
		}
	}
}

// Amounts and details the rule text fixes on its cells.
func TestBoardFixedAmounts(t *testing.T) {
	b := Board
	checks := []struct {
		what      string
		got, want int64
	}{
		{"W-21 narcotics bought at $100 a ton", b[3].Amount, 100},                     // rule W-21
		{"W-17 speculation ×3 at 18", int64(b[18].Mult), 6},                           // rule W-17
		{"W-17 speculation ×1.5 at 24", int64(b[24].Mult), 3},                         // rule W-17
		{"W-17 speculation ×1.5 at 81", int64(b[81].Mult), 3},                         // rule W-17
		{"W-30 travel agency costs $500", b[57].Price, 500},                           // rule W-30
		{"W-10 ХММ is a firm", int64(b[10].Group), int64(GFirm)},                      // rule W-10
		{"W-15 newspaper 35 is a medium", int64(b[35].Group), int64(GMedia)},          // rule W-15
		{"W-8 МММ is leading", int64(b[56].Group), int64(GLeading)},                   // rule W-8
		{"W-8 МММ makes cola", int64(b[56].Good), int64(Cola)},                        // rule W-8
		{"W-8 ЭМА is leading", int64(b[65].Group), int64(GLeading)},                   // rule W-8
		{"W-8 ЭМА makes cars", int64(b[65].Good), int64(Cars)},                        // rule W-8
		{"W-8 Бампер is leading", int64(b[117].Group), int64(GLeading)},               // rule W-8
		{"W-8 Бампер pays profit, makes no goods", int64(b[117].Good), int64(NoGood)}, // rule W-8
		{"W-8 Бампер profit 100%", b[117].Profit, b[117].Price},                       // rule W-8
		{"W-32 opium profit 200%", b[115].Profit, 2 * b[115].Price},                   // rule W-32
		{"W-32 coffee profit 100%", b[116].Profit, b[116].Price},                      // rule W-32
		{"W-32 trinkets cost $200", b[120].Price, 200},                                // rule W-32
		{"W-32 opium is a plantation", int64(b[115].Group), int64(GPlantation)},
		{"W-32 coffee is a plantation", int64(b[116].Group), int64(GPlantation)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.what, c.got, c.want)
		}
	}
	if b[89].Points <= 0 || b[121].Points <= 0 { // rule W-15
		t.Errorf("tanker and Klondike must raise the rate: %d, %d", b[89].Points, b[121].Points)
	}
	if b[26].RU != "Красный рынок" { // rule W-25
		t.Errorf("cell 26 RU = %q", b[26].RU)
	}
	if b[114].RU != "Порт-Янки" { // rule W-30
		t.Errorf("cell 114 RU = %q", b[114].RU)
	}
}

// rule W-11
func TestBoardBanks(t *testing.T) {
	got := cellsWhere(func(c Cell) bool { return c.Kind == KBank })
	if want := []int{8, 20, 27, 45, 72, 118}; !slices.Equal(got, want) {
		t.Errorf("banks = %v, want %v", got, want)
	}
}

// rule W-15, W-18, W-17, W-19: markets, exchanges, speculation and the
// auction are only where the rules put them.
func TestBoardTradingCells(t *testing.T) {
	tests := []struct {
		kind CellKind
		want []int
	}{
		{KMarket, []int{15, 26, 33}},      // rule W-15
		{KExchange, []int{14, 64, 87}},    // rule W-18
		{KSpeculation, []int{18, 24, 81}}, // rule W-17
		{KAuction, []int{9}},              // rule W-19
		{KNarcoBuy, []int{3}},             // rule W-21
		{KBribe, []int{4}},                // rule W-23
		{KClan, []int{91}},                // rule W-20
		{KGodfather, []int{106}},          // rule W-24
		{KTanker, []int{89}},              // rule W-15
		{KTravel, []int{57}},              // rule W-30
		{KStart, []int{1}},                // rule W-3
	}
	for _, tt := range tests {
		got := cellsWhere(func(c Cell) bool { return c.Kind == tt.kind })
		if !slices.Equal(got, tt.want) {
			t.Errorf("kind %d at %v, want %v", tt.kind, got, tt.want)
		}
	}
}

// rule W-22, W-23
func TestBoardPrisons(t *testing.T) {
	got := cellsWhere(func(c Cell) bool { return c.Kind == KPrison })
	if want := []int{92, 96, 101, 103, 105, 107, 110}; !slices.Equal(got, want) {
		t.Errorf("prisons = %v, want %v", got, want)
	}
	for _, n := range got {
		if Board[n].Turns < 1 {
			t.Errorf("prison %d: Turns = %d", n, Board[n].Turns)
		}
	}
	if Board[4].Price <= 0 { // rule W-23
		t.Errorf("bribe price = %d", Board[4].Price)
	}
}

// rule W-20, W-21, W-24: the slippery path.
func TestBoardSlipperyPath(t *testing.T) {
	slippy := cellsWhere(func(c Cell) bool { return c.Slippy })
	var want []int
	for n := 91; n <= 110; n++ {
		want = append(want, n)
	}
	if !slices.Equal(slippy, want) {
		t.Errorf("slippery cells = %v, want 91..110", slippy)
	}
	// rule W-21: narcotics sell ever dearer along the path.
	var prices []int64
	for _, n := range cellsWhere(func(c Cell) bool { return c.Kind == KNarcoSell }) {
		if !Board[n].Slippy {
			t.Errorf("narcotics sold off the slippery path at %d", n)
		}
		prices = append(prices, Board[n].Amount)
	}
	if want := []int64{300, 500, 700, 1000}; !slices.Equal(prices, want) {
		t.Errorf("narcotics prices along the path = %v, want %v", prices, want)
	}
	// rule W-20: four crimes that pay.
	crimes := cellsWhere(func(c Cell) bool { return c.Kind == KCrime })
	if len(crimes) < 4 {
		t.Errorf("crimes = %v, want at least four", crimes)
	}
	for _, n := range crimes {
		if c := Board[n]; !c.Slippy || c.Amount <= 0 {
			t.Errorf("crime %d: slippy=%v amount=%d", n, c.Slippy, c.Amount)
		}
	}
	// rule W-24: raids.
	raids := cellsWhere(func(c Cell) bool { return c.Kind == KRaid })
	if len(raids) == 0 {
		t.Error("no police raids")
	}
	for _, n := range raids {
		if c := Board[n]; !c.Slippy || c.Turns < 1 {
			t.Errorf("raid %d: slippy=%v turns=%d", n, c.Slippy, c.Turns)
		}
	}
}

// rule W-5, W-8, W-10, W-32: holdings.
func TestBoardHoldings(t *testing.T) {
	var media, leading int
	for n := 1; n <= NumCells; n++ {
		c := Board[n]
		if c.Kind != KHolding {
			if c.Group != GNone || c.Profit != 0 || c.Good != NoGood {
				t.Errorf("cell %d is not a holding but has group/profit/good", n)
			}
			continue
		}
		if c.Price <= 0 {
			t.Errorf("holding %d: price %d", n, c.Price)
		}
		if c.Group == GNone {
			t.Errorf("holding %d: no group", n)
		}
		if c.Profit < 0 {
			t.Errorf("holding %d: profit %d", n, c.Profit)
		}
		if (c.Group == GLeading && n != cellBumper) != (c.Good != NoGood) {
			t.Errorf("holding %d: group %d with good %v", n, c.Group, c.Good)
		}
		if (c.Group == GPlantation) && !c.Colony {
			t.Errorf("plantation %d outside the colony", n)
		}
		switch c.Group {
		case GMedia:
			media++
		case GLeading:
			leading++
		case GFirm, GStreet:
			if c.Colony {
				t.Errorf("firm or street %d in the colony", n)
			}
			if c.Price < 2000 || c.Price > 40000 || c.Profit*10 < c.Price || c.Profit*4 > c.Price {
				t.Errorf("holding %d: price %d profit %d out of the filled-in ranges", n, c.Price, c.Profit)
			}
		}
	}
	if media < 3 { // rule W-10
		t.Errorf("%d media, want the newspaper 35 and at least two more", media)
	}
	if leading != 3 { // rule W-8
		t.Errorf("%d leading companies, want 3", leading)
	}
	if firms := cellsWhere(func(c Cell) bool { return c.Group == GFirm }); len(firms) == 0 { // rule W-19
		t.Error("no firms for the auction")
	}
}

// rule W-16: cells with indices.
func TestBoardLabour(t *testing.T) {
	var up, down int
	for n := 1; n <= NumCells; n++ {
		c := Board[n]
		if (c.Kind == KLabour) != (c.Labour != 0) {
			t.Errorf("cell %d: kind %d labour %d", n, c.Kind, c.Labour)
		}
		switch c.Labour {
		case 0:
		case 1:
			up++
		case -1:
			down++
		default:
			t.Errorf("cell %d: labour %d", n, c.Labour)
		}
		if c.Labour != 0 && n > 90 {
			t.Errorf("labour cell %d off the main loop", n)
		}
	}
	if up != 4 || down != 4 {
		t.Errorf("labour cells +1: %d, −1: %d, want 4 and 4", up, down)
	}
}

// rule W-30, W-31, W-33, W-34: the sea route and the colony.
func TestBoardColony(t *testing.T) {
	colony := cellsWhere(func(c Cell) bool { return c.Colony })
	var want []int
	for n := 114; n <= 129; n++ {
		want = append(want, n)
	}
	if !slices.Equal(colony, want) {
		t.Errorf("colony cells = %v, want 114..129", colony)
	}
	sea := []struct {
		n    int
		kind CellKind
	}{
		{111, KMutiny},  // rule W-30
		{112, KPirates}, // rule W-30
		{113, KReefs},   // rule W-30, W-33
	}
	for _, s := range sea {
		if Board[s.n].Kind != s.kind {
			t.Errorf("sea cell %d: kind %d, want %d", s.n, Board[s.n].Kind, s.kind)
		}
	}
	if Board[111].Amount <= 0 { // rule W-30
		t.Errorf("mutiny costs %d", Board[111].Amount)
	}
	for n := 114; n <= 129; n++ {
		if c := Board[n]; c.Kind == KHolding && c.Group != GLeading && (c.Price < 10000 || c.Price > 30000) {
			t.Errorf("colony holding %d: price %d", n, c.Price)
		}
	}
}

func TestBoardGoods(t *testing.T) {
	if Goods[NoGood] != (GoodInfo{}) {
		t.Errorf("Goods[NoGood] = %+v, want zero", Goods[NoGood])
	}
	for g := Cars; g < numGoods; g++ {
		gi := Goods[g]
		if gi.Good != g || gi.RU == "" || gi.EN == "" || gi.PerPoint <= 0 {
			t.Errorf("Goods[%v] = %+v", g, gi)
		}
	}
}
