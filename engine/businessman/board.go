package businessman

// The board of «Бизнесмен». The rule text (businessman.ru.txt, RULES.md
// B-0…B-28) numbers a few cells: the exchange cells 10, 25, 50, 52 and the
// highway's 3rd, 5th, 6th and 8th cells; with Start, where the numbering
// begins, those are marked FromRules. It gives the roles and amounts of
// more (Штраф, Выигрыш, Прибыль, Подарок, Маклер, the supermarket, customs,
// the hotel, the highway's entrance and crossroads, the roulette's cells)
// but not where they lie: those entries are FilledIn with the comment "role
// from the text, number ours", as on the other game's board; their amounts are
// the text's (the constants below). The printed board is not in the texts:
// every other cell, every lot's price, building costs and rents are our
// choice and FilledIn (DECISIONS.md).
//
// One numbering covers every track:
//
//	1..40   the big perimeter, clockwise; 40 leads to Start (1)
//	41..56  the small perimeter abroad, entered through customs (24);
//	        56 leads back home to 25 (the border exchange, B-20)
//	60..69  the highway: 60 its entrance (from 15), 61..68 its cells 1..8,
//	        69 the crossroads, which leads back to 35 (B-24)
//	70..81  the roulette ring: 70 «Вход», 81 «В банк» (B-23)

import "slices"

// Source tells whether a datum is fixed by the rules or our choice.
type Source uint8

const (
	FromRules Source = iota + 1
	FilledIn
)

func (s Source) String() string {
	if s == FromRules {
		return "rules"
	}
	return "filled-in"
}

// MarshalText writes "rules" or "filled-in".
func (s Source) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Kind is what a cell does.
type Kind uint8

const (
	KPlain         Kind = iota // nothing happens
	KStart                     // B-5
	KLot                       // a lot of a colour group (B-6…B-8)
	KSuper                     // the supermarket (B-25)
	KFine                      // Штраф (B-10)
	KWin                       // Выигрыш (B-10)
	KProfit                    // Прибыль (B-10)
	KGift                      // Подарок: shares of a chosen colour (B-10)
	KSurprise                  // draw a Сюрприз card (B-11)
	KNotice                    // draw an Извещение card (B-11)
	KExchange                  // opens the exchange (B-12)
	KBroker                    // Маклер: the exchange for a fee (B-12)
	KHighway                   // the highway's entrance (B-24)
	KCustoms                   // customs: the way abroad (B-22)
	KHotel                     // the hotel (B-21)
	KHwShares                  // the highway's 3rd cell: shares, and the exchange (B-12, B-24)
	KHospital                  // the highway's accident cells (B-24)
	KHwHalf                    // the highway's 8th cell: half of one's cash (B-24)
	KCross                     // the crossroads: toll, back to the big perimeter (B-24)
	KRouletteIn                // «Вход» (B-23)
	KRouletteMoney             // a roulette cell that pays (+) or takes (−) Amount
	KRouletteExit              // «Выход»: the player may leave (B-23)
	KRouletteBank              // «В банк» (B-23)
)

// Colours of the lots. The first NumColours are also the share colours of
// the exchange (B-13); the three abroad colours have no shares.
const (
	NumColours = 6
	NumGroups  = 9
	NoGroup    = -1
)

// Group is a colour group of lots.
type Group struct {
	Key    string `json:"key"` // also the share colour's name in actions (Action.Good)
	RU, EN string
	Lots   []int
}

// Groups lists the colour groups; Groups[k].Key names share colour k.
var Groups = [NumGroups]Group{
	{Key: "red", RU: "Красный", EN: "Red", Lots: []int{2, 4, 6}},
	{Key: "orange", RU: "Оранжевый", EN: "Orange", Lots: []int{8, 9, 11}},
	{Key: "yellow", RU: "Жёлтый", EN: "Yellow", Lots: []int{13, 16, 18}},
	{Key: "green", RU: "Зелёный", EN: "Green", Lots: []int{21, 23, 26}},
	{Key: "blue", RU: "Синий", EN: "Blue", Lots: []int{28, 31, 32}},
	{Key: "purple", RU: "Фиолетовый", EN: "Purple", Lots: []int{34, 35, 37}},
	{Key: "silver", RU: "Серебряный", EN: "Silver", Lots: []int{42, 43, 45}},
	{Key: "gold", RU: "Золотой", EN: "Gold", Lots: []int{47, 49, 51}},
	{Key: "platinum", RU: "Платиновый", EN: "Platinum", Lots: []int{53, 55}},
}

// ColourIndex returns the share colour named key, or −1.
func ColourIndex(key string) int {
	return slices.IndexFunc(Groups[:NumColours], func(g Group) bool { return g.Key == key })
}

// Cell is one square of the board. Rent is by building level: none,
// branch (филиал), enterprise (предприятие) (B-7, B-8).
type Cell struct {
	N          int      `json:"n"`
	Kind       Kind     `json:"kind"`
	RU         string   `json:"ru"`
	EN         string   `json:"en"`
	Group      int      `json:"group"`
	Price      int64    `json:"price,omitempty"`
	Branch     int64    `json:"branch,omitempty"`
	Enterprise int64    `json:"enterprise,omitempty"`
	Rent       [3]int64 `json:"rent,omitempty"`
	Amount     int64    `json:"amount,omitempty"` // the cell's payment (+) or charge (−)
	Source     Source   `json:"source"`
}

// NumCells is one past the highest cell number.
const NumCells = 82

// Track ends and named cells.
const (
	CellStart      = 1
	BigLast        = 40
	AbroadFirst    = 41 // «Граница»: where customs puts the token
	AbroadLast     = 56
	CellHighway    = 15 // the highway's entrance on the big perimeter
	CellSuper      = 20
	CellCustoms    = 24
	CellBorder     = 25 // the exchange at the border; abroad returns here
	CellHotel      = 30
	CellExit       = 35 // where the crossroads leads (B-24)
	HighwayIn      = 60
	CellCross      = 69
	RouletteIn     = 70
	RouletteLen    = 12
	CellBorderBank = 52 // the exchange abroad, the other end of B-20's transfer
)

// Rules' amounts (FromRules) and our filled-in ones.
const (
	StartCash        = 250_000 // B-1
	StartBonus       = 20_000  // B-5
	StartShares      = 1       // B-1: one share of each colour
	LargeDealt       = 3       // B-2
	SmallDealt       = 4       // B-2
	PointValue       = 1_000   // B-13: one point is 1,000
	StartPoints      = 10      // B-13: a share starts at 10,000
	MinPoints        = 1       // B-13
	MaxPoints        = 25      // B-13
	BuyPerVisit      = 4       // B-13: shares of each colour per exchange visit
	LargeRaise       = 10      // B-14
	HalvedAtOneFine  = 50_000  // B-18
	BrokerFee        = 1_000   // B-12
	CustomsFee       = 10_000  // B-22
	AbroadSurcharge  = 5_000   // B-22
	HighwayShares    = 5       // B-24
	HospitalFee      = 30_000  // B-24
	CrossToll        = 5_000   // B-24
	SuperFee         = 20_000  // B-25
	SuperPrice       = 50_000  // B-25
	SuperOwnerPct    = 75      // B-25
	RouletteBankWin  = 200_000 // B-23
	RoulettePlays    = 3       // B-21
	GiftShares       = 3       // B-10
	MortgageLaps     = 2       // B-27
	BuildingSalePct  = 50      // B-26: buildings go back to the bank at half price
	MortgagePct      = 50      // filled-in: the loan on a pledged lot
	RedeemPct        = 55      // filled-in: what redeeming costs (10% of the price as interest)
	BankBuyPct       = 50      // filled-in: what the bank pays for a lot sold to it (B-19)
	MaxOffersPerTurn = 3       // filled-in: deals one turn may propose (B-4)
	MaxHand          = 12      // filled-in: exchange cards a hand holds at most
)

// Pieces are the building pieces in the bank (B-7, filled-in counts).
var Pieces = struct{ Branches, Enterprises int }{Branches: 20, Enterprises: 10}

func lot(n int, ru, en string, g int, price int64) Cell {
	// Filled-in economy: branch ½ of the price, enterprise the price;
	// rent a tenth of the price bare, half with a branch, the whole price
	// with an enterprise (B-8 doubles it for a whole colour).
	return Cell{N: n, Kind: KLot, RU: ru, EN: en, Group: g, Price: price,
		Branch: price / 2, Enterprise: price,
		Rent: [3]int64{price / 10, price / 2, price * 3 / 2}, Source: FilledIn}
}

func cell(n int, k Kind, ru, en string, amount int64, src Source) Cell {
	return Cell{N: n, Kind: k, RU: ru, EN: en, Group: NoGroup, Amount: amount, Source: src}
}

// Board is indexed by cell number; unused numbers are zero Cells.
var Board = [NumCells]Cell{
	// ---- The big perimeter ----
	1:  cell(1, KStart, "Старт", "Start", StartBonus, FromRules),
	2:  lot(2, "Хлебозавод", "Bakery", 0, 20_000),
	3:  cell(3, KSurprise, "Сюрприз", "Surprise", 0, FilledIn), // role from the text, number ours
	4:  lot(4, "Молокозавод", "Dairy", 0, 20_000),
	5:  cell(5, KFine, "Штраф", "Fine", -30_000, FilledIn), // role from the text, number ours
	6:  lot(6, "Кондитерская фабрика", "Confectionery", 0, 24_000),
	7:  cell(7, KNotice, "Извещение", "Notice", 0, FilledIn), // role from the text, number ours
	8:  lot(8, "Обувная фабрика", "Shoe factory", 1, 30_000),
	9:  lot(9, "Швейная фабрика", "Clothing factory", 1, 30_000),
	10: cell(10, KExchange, "Биржа", "Exchange", 0, FromRules),
	11: lot(11, "Текстильный комбинат", "Textile mill", 1, 34_000),
	12: cell(12, KWin, "Выигрыш", "Win", 40_000, FilledIn), // role from the text, number ours
	13: lot(13, "Кинотеатр", "Cinema", 2, 40_000),
	14: cell(14, KBroker, "Маклер", "Broker", -BrokerFee, FilledIn),  // role from the text, number ours
	15: cell(15, KHighway, "Автомагистраль", "Highway", 0, FilledIn), // role from the text, number ours
	16: lot(16, "Театр", "Theatre", 2, 40_000),
	17: cell(17, KSurprise, "Сюрприз", "Surprise", 0, FilledIn), // role from the text, number ours
	18: lot(18, "Телестудия", "TV studio", 2, 44_000),
	19: cell(19, KGift, "Подарок", "Gift", GiftShares, FilledIn),                                                                            // role from the text, number ours
	20: {N: 20, Kind: KSuper, RU: "Супермаркет", EN: "Supermarket", Group: NoGroup, Price: SuperPrice, Amount: -SuperFee, Source: FilledIn}, // role from the text, number ours
	21: lot(21, "Автозавод", "Car plant", 3, 50_000),
	22: cell(22, KNotice, "Извещение", "Notice", 0, FilledIn), // role from the text, number ours
	23: lot(23, "Тракторный завод", "Tractor plant", 3, 50_000),
	24: cell(24, KCustoms, "Таможня", "Customs", -CustomsFee, FilledIn), // role from the text, number ours
	25: cell(25, KExchange, "Биржа (граница)", "Exchange (border)", 0, FromRules),
	26: lot(26, "Авиазавод", "Aircraft plant", 3, 54_000),
	27: cell(27, KProfit, "Прибыль", "Profit", 50_000, FilledIn), // role from the text, number ours
	28: lot(28, "Нефтепромысел", "Oil field", 4, 60_000),
	29: cell(29, KSurprise, "Сюрприз", "Surprise", 0, FilledIn), // role from the text, number ours
	30: cell(30, KHotel, "Отель", "Hotel", 0, FilledIn),         // role from the text, number ours
	31: lot(31, "Газопровод", "Gas pipeline", 4, 60_000),
	32: lot(32, "Нефтеперерабатывающий завод", "Refinery", 4, 64_000),
	33: cell(33, KFine, "Штраф", "Fine", -30_000, FilledIn), // role from the text, number ours
	34: lot(34, "Банк «Север»", "North Bank", 5, 70_000),
	35: lot(35, "Страховая компания", "Insurance company", 5, 70_000),
	36: cell(36, KBroker, "Маклер", "Broker", -BrokerFee, FilledIn), // role from the text, number ours
	37: lot(37, "Инвестиционный фонд", "Investment fund", 5, 80_000),
	38: cell(38, KWin, "Выигрыш", "Win", 40_000, FilledIn),      // role from the text, number ours
	39: cell(39, KSurprise, "Сюрприз", "Surprise", 0, FilledIn), // role from the text, number ours
	40: cell(40, KNotice, "Извещение", "Notice", 0, FilledIn),   // role from the text, number ours

	// ---- The small perimeter, abroad (B-22) ----
	41: cell(41, KPlain, "Граница", "Border", 0, FilledIn),
	42: lot(42, "Отель «Ривьера»", "Riviera hotel", 6, 80_000),
	43: lot(43, "Казино", "Casino", 6, 80_000),
	44: cell(44, KSurprise, "Сюрприз", "Surprise", 0, FilledIn), // role from the text, number ours
	45: lot(45, "Яхт-клуб", "Yacht club", 6, 84_000),
	46: cell(46, KFine, "Штраф", "Fine", -30_000, FilledIn), // role from the text, number ours
	47: lot(47, "Алмазный прииск", "Diamond mine", 7, 90_000),
	48: cell(48, KNotice, "Извещение", "Notice", 0, FilledIn), // role from the text, number ours
	49: lot(49, "Золотой рудник", "Gold mine", 7, 90_000),
	50: cell(50, KExchange, "Биржа", "Exchange", 0, FromRules),
	51: lot(51, "Ювелирный дом", "Jewellery house", 7, 100_000),
	52: cell(52, KExchange, "Биржа (банк за границей)", "Exchange (bank abroad)", 0, FromRules),
	53: lot(53, "Морской порт", "Seaport", 8, 110_000),
	54: cell(54, KWin, "Выигрыш", "Win", 40_000, FilledIn), // role from the text, number ours
	55: lot(55, "Авиакомпания", "Airline", 8, 120_000),
	56: cell(56, KBroker, "Маклер", "Broker", -BrokerFee, FilledIn), // role from the text, number ours

	// ---- The highway (B-24); 61..68 are its cells 1..8 ----
	60: cell(60, KPlain, "Въезд на автомагистраль", "Highway entrance", 0, FilledIn),
	61: cell(61, KPlain, "Заправка", "Filling station", 0, FilledIn),
	62: cell(62, KPlain, "Мотель", "Motel", 0, FilledIn),
	63: cell(63, KHwShares, "Автомагистраль, 3: акции", "Highway 3: shares", HighwayShares, FromRules),
	64: cell(64, KPlain, "Пост ДПС", "Police post", 0, FilledIn),
	65: cell(65, KHospital, "Авария: больница", "Accident: hospital", -HospitalFee, FromRules),
	66: cell(66, KHospital, "Авария: больница", "Accident: hospital", -HospitalFee, FromRules),
	67: cell(67, KPlain, "Кемпинг", "Camping", 0, FilledIn),
	68: cell(68, KHwHalf, "Автомагистраль, 8: половина денег", "Highway 8: half your money", 0, FromRules),
	69: cell(69, KCross, "Перекрёсток", "Crossroads", -CrossToll, FilledIn), // role from the text, number ours

	// ---- The roulette ring (B-23); amounts filled-in ----
	70: cell(70, KRouletteIn, "Вход", "Entrance", 0, FilledIn), // role from the text, number ours
	71: cell(71, KRouletteMoney, "Проигрыш", "Loss", -10_000, FilledIn),
	72: cell(72, KRouletteExit, "Выход", "Exit", 0, FilledIn), // role from the text, number ours
	73: cell(73, KRouletteMoney, "Выигрыш", "Win", 20_000, FilledIn),
	74: cell(74, KRouletteMoney, "Проигрыш", "Loss", -20_000, FilledIn),
	75: cell(75, KRouletteExit, "Выход", "Exit", 0, FilledIn), // role from the text, number ours
	76: cell(76, KRouletteMoney, "Проигрыш", "Loss", -30_000, FilledIn),
	77: cell(77, KRouletteMoney, "Выигрыш", "Win", 10_000, FilledIn),
	78: cell(78, KRouletteMoney, "Проигрыш", "Loss", -10_000, FilledIn),
	79: cell(79, KRouletteExit, "Выход", "Exit", 0, FilledIn), // role from the text, number ours
	80: cell(80, KRouletteMoney, "Проигрыш", "Loss", -40_000, FilledIn),
	81: cell(81, KRouletteBank, "В банк", "To the bank", RouletteBankWin, FilledIn), // role from the text, number ours
}

// isProperty tells whether cell can be owned: a lot or the supermarket.
func isProperty(cell int) bool {
	return cell > 0 && cell < NumCells && (Board[cell].Kind == KLot || Board[cell].Kind == KSuper)
}

// abroad tells whether cell is on the small perimeter.
func abroad(cell int) bool { return cell >= AbroadFirst && cell <= AbroadLast }

// next is the cell after c along its track.
func next(c int) int {
	switch {
	case c == BigLast:
		return CellStart
	case c == AbroadLast:
		return CellBorder
	case c == CellCross:
		return CellExit
	case c >= RouletteIn:
		return RouletteIn + (c-RouletteIn+1)%RouletteLen
	}
	return c + 1
}
