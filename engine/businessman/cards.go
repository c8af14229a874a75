package businessman

// The decks of «Бизнесмен». The texts give none of the cards' wording; the
// one card they name is «Сыграть на бирже» (B-11), kept until used. All
// the rest is filled in (DECISIONS.md).

// Effect is what a Сюрприз or Извещение card does.
type Effect uint8

const (
	EffMoney     Effect = iota + 1 // Amount from (+) or to (−) the bank
	EffGoto                        // move straight to Cell and stop there (Start pays its bonus)
	EffPass                        // «Сыграть на бирже»: kept until the holder opens the exchange with it
	EffEach                        // every other player pays the drawer Amount (+), or the drawer pays each (−)
	EffBuildings                   // pay Amount per branch and Amount2 per enterprise
	EffDividend                    // Amount per share held, from the bank (B-20: share winnings)
	EffExCard                      // draw a small exchange card (kept hidden, B-2)
)

// Card is one Сюрприз or Извещение card.
type Card struct {
	RU, EN  string
	Effect  Effect
	Amount  int64
	Amount2 int64
	Cell    int
	Source  Source
}

// Deck ids: which pile a card comes from (Action.Cell of use_pass).
const (
	DeckSurprise = 1
	DeckNotice   = 2
)

// SurpriseCards is the Сюрприз deck.
var SurpriseCards = []Card{
	{RU: "Сыграть на бирже. Сохраните карту до своего хода.", EN: "Play on the exchange. Keep this card until your turn.", Effect: EffPass, Source: FromRules},
	{RU: "Вы выиграли в лотерею 25 000.", EN: "You win 25,000 in a lottery.", Effect: EffMoney, Amount: 25_000, Source: FilledIn},
	{RU: "Штраф за превышение скорости: 15 000.", EN: "Speeding fine: 15,000.", Effect: EffMoney, Amount: -15_000, Source: FilledIn},
	{RU: "Отправляйтесь на «Старт».", EN: "Advance to Start.", Effect: EffGoto, Cell: CellStart, Source: FilledIn},
	{RU: "День рождения: каждый игрок дарит вам 10 000.", EN: "Birthday: every player gives you 10,000.", Effect: EffEach, Amount: 10_000, Source: FilledIn},
	{RU: "Выплата дивидендов: 2 000 за каждую вашу акцию.", EN: "Dividends: 2,000 for each share you hold.", Effect: EffDividend, Amount: 2_000, Source: FilledIn},
	{RU: "Возьмите маленькую карту биржи.", EN: "Take a small exchange card.", Effect: EffExCard, Source: FilledIn},
	{RU: "Отправляйтесь в «Отель».", EN: "Go to the Hotel.", Effect: EffGoto, Cell: CellHotel, Source: FilledIn},
	{RU: "Премия за рационализацию: 15 000.", EN: "Innovation bonus: 15,000.", Effect: EffMoney, Amount: 15_000, Source: FilledIn},
	{RU: "Ремонт автомобиля: 20 000.", EN: "Car repairs: 20,000.", Effect: EffMoney, Amount: -20_000, Source: FilledIn},
}

// NoticeCards is the Извещение deck.
var NoticeCards = []Card{
	{RU: "Сыграть на бирже. Сохраните карту до своего хода.", EN: "Play on the exchange. Keep this card until your turn.", Effect: EffPass, Source: FromRules},
	{RU: "Налог на прибыль: 20 000.", EN: "Income tax: 20,000.", Effect: EffMoney, Amount: -20_000, Source: FilledIn},
	{RU: "Налог на недвижимость: 5 000 за филиал, 10 000 за предприятие.", EN: "Property tax: 5,000 per branch, 10,000 per enterprise.", Effect: EffBuildings, Amount: 5_000, Amount2: 10_000, Source: FilledIn},
	{RU: "Благотворительность: заплатите каждому игроку 5 000.", EN: "Charity: pay every player 5,000.", Effect: EffEach, Amount: -5_000, Source: FilledIn},
	{RU: "Возврат переплаченного налога: 30 000.", EN: "Tax refund: 30,000.", Effect: EffMoney, Amount: 30_000, Source: FilledIn},
	{RU: "Отправляйтесь на биржу (клетка 10).", EN: "Go to the exchange (cell 10).", Effect: EffGoto, Cell: 10, Source: FilledIn},
	{RU: "Штраф за нарушение правил торговли: 10 000.", EN: "Trading violation fine: 10,000.", Effect: EffMoney, Amount: -10_000, Source: FilledIn},
	{RU: "Выигрыш по акциям: 1 000 за каждую вашу акцию.", EN: "Share winnings: 1,000 for each share you hold.", Effect: EffDividend, Amount: 1_000, Source: FilledIn},
	{RU: "Вы получили наследство: 20 000.", EN: "You inherit 20,000.", Effect: EffMoney, Amount: 20_000, Source: FilledIn},
	{RU: "Отправляйтесь на «Старт».", EN: "Advance to Start.", Effect: EffGoto, Cell: CellStart, Source: FilledIn},
}

// XKind is the kind of an exchange card (B-14).
type XKind uint8

const (
	XLarge     XKind = iota + 1 // raise a chosen colour by 10, lower each other colour by Down
	XTwo                        // double or halve one chosen colour (the «двойка»)
	XSmallUp                    // raise a chosen colour by Up, lower each other colour by Up
	XSmallDown                  // lower a chosen colour by Down
)

// XCard is one exchange card. Code is unique and what views show.
type XCard struct {
	Code   string
	Kind   XKind
	Up     int
	Down   int
	RU, EN string
	Source Source
}

// Large reports whether the card belongs to the large deck.
func (c XCard) Large() bool { return c.Kind == XLarge || c.Kind == XTwo }

// XCards is every exchange card; ids are indexes. The first NumLarge form
// the large deck (the «двойки» among them), the rest the small one. The
// kinds are from B-14; the points and the counts are filled in.
var XCards = []XCard{
	{Code: "L01", Kind: XLarge, Up: LargeRaise, Down: 2, RU: "Большая: цвет +10, остальные −2", EN: "Large: colour +10, the others −2", Source: FilledIn},
	{Code: "L02", Kind: XLarge, Up: LargeRaise, Down: 3, RU: "Большая: цвет +10, остальные −3", EN: "Large: colour +10, the others −3", Source: FilledIn},
	{Code: "L03", Kind: XLarge, Up: LargeRaise, Down: 4, RU: "Большая: цвет +10, остальные −4", EN: "Large: colour +10, the others −4", Source: FilledIn},
	{Code: "L04", Kind: XLarge, Up: LargeRaise, Down: 5, RU: "Большая: цвет +10, остальные −5", EN: "Large: colour +10, the others −5", Source: FilledIn},
	{Code: "L05", Kind: XLarge, Up: LargeRaise, Down: 2, RU: "Большая: цвет +10, остальные −2", EN: "Large: colour +10, the others −2", Source: FilledIn},
	{Code: "L06", Kind: XLarge, Up: LargeRaise, Down: 3, RU: "Большая: цвет +10, остальные −3", EN: "Large: colour +10, the others −3", Source: FilledIn},
	{Code: "L07", Kind: XLarge, Up: LargeRaise, Down: 4, RU: "Большая: цвет +10, остальные −4", EN: "Large: colour +10, the others −4", Source: FilledIn},
	{Code: "L08", Kind: XLarge, Up: LargeRaise, Down: 5, RU: "Большая: цвет +10, остальные −5", EN: "Large: colour +10, the others −5", Source: FilledIn},
	{Code: "L09", Kind: XLarge, Up: LargeRaise, Down: 2, RU: "Большая: цвет +10, остальные −2", EN: "Large: colour +10, the others −2", Source: FilledIn},
	{Code: "L10", Kind: XLarge, Up: LargeRaise, Down: 3, RU: "Большая: цвет +10, остальные −3", EN: "Large: colour +10, the others −3", Source: FilledIn},
	{Code: "L11", Kind: XLarge, Up: LargeRaise, Down: 4, RU: "Большая: цвет +10, остальные −4", EN: "Large: colour +10, the others −4", Source: FilledIn},
	{Code: "L12", Kind: XLarge, Up: LargeRaise, Down: 5, RU: "Большая: цвет +10, остальные −5", EN: "Large: colour +10, the others −5", Source: FilledIn},
	{Code: "L13", Kind: XLarge, Up: LargeRaise, Down: 3, RU: "Большая: цвет +10, остальные −3", EN: "Large: colour +10, the others −3", Source: FilledIn},
	{Code: "L14", Kind: XLarge, Up: LargeRaise, Down: 4, RU: "Большая: цвет +10, остальные −4", EN: "Large: colour +10, the others −4", Source: FilledIn},
	{Code: "L15", Kind: XLarge, Up: LargeRaise, Down: 5, RU: "Большая: цвет +10, остальные −5", EN: "Large: colour +10, the others −5", Source: FilledIn},
	{Code: "L16", Kind: XLarge, Up: LargeRaise, Down: 3, RU: "Большая: цвет +10, остальные −3", EN: "Large: colour +10, the others −3", Source: FilledIn},
	{Code: "L17", Kind: XLarge, Up: LargeRaise, Down: 4, RU: "Большая: цвет +10, остальные −4", EN: "Large: colour +10, the others −4", Source: FilledIn},
	{Code: "L18", Kind: XLarge, Up: LargeRaise, Down: 5, RU: "Большая: цвет +10, остальные −5", EN: "Large: colour +10, the others −5", Source: FilledIn},
	{Code: "L19", Kind: XTwo, RU: "Двойка: цвет ×2 или ÷2", EN: "Two: colour ×2 or ÷2", Source: FilledIn},
	{Code: "L20", Kind: XTwo, RU: "Двойка: цвет ×2 или ÷2", EN: "Two: colour ×2 or ÷2", Source: FilledIn},
	{Code: "L21", Kind: XTwo, RU: "Двойка: цвет ×2 или ÷2", EN: "Two: colour ×2 or ÷2", Source: FilledIn},
	{Code: "L22", Kind: XTwo, RU: "Двойка: цвет ×2 или ÷2", EN: "Two: colour ×2 or ÷2", Source: FilledIn},
	{Code: "L23", Kind: XTwo, RU: "Двойка: цвет ×2 или ÷2", EN: "Two: colour ×2 or ÷2", Source: FilledIn},
	{Code: "L24", Kind: XTwo, RU: "Двойка: цвет ×2 или ÷2", EN: "Two: colour ×2 or ÷2", Source: FilledIn},
	{Code: "S01", Kind: XSmallUp, Up: 1, RU: "Малая: цвет +1, остальные −1", EN: "Small: colour +1, the others −1", Source: FilledIn},
	{Code: "S02", Kind: XSmallUp, Up: 2, RU: "Малая: цвет +2, остальные −2", EN: "Small: colour +2, the others −2", Source: FilledIn},
	{Code: "S03", Kind: XSmallUp, Up: 3, RU: "Малая: цвет +3, остальные −3", EN: "Small: colour +3, the others −3", Source: FilledIn},
	{Code: "S04", Kind: XSmallUp, Up: 4, RU: "Малая: цвет +4, остальные −4", EN: "Small: colour +4, the others −4", Source: FilledIn},
	{Code: "S05", Kind: XSmallUp, Up: 5, RU: "Малая: цвет +5, остальные −5", EN: "Small: colour +5, the others −5", Source: FilledIn},
	{Code: "S06", Kind: XSmallUp, Up: 6, RU: "Малая: цвет +6, остальные −6", EN: "Small: colour +6, the others −6", Source: FilledIn},
	{Code: "S07", Kind: XSmallUp, Up: 1, RU: "Малая: цвет +1, остальные −1", EN: "Small: colour +1, the others −1", Source: FilledIn},
	{Code: "S08", Kind: XSmallUp, Up: 2, RU: "Малая: цвет +2, остальные −2", EN: "Small: colour +2, the others −2", Source: FilledIn},
	{Code: "S09", Kind: XSmallUp, Up: 3, RU: "Малая: цвет +3, остальные −3", EN: "Small: colour +3, the others −3", Source: FilledIn},
	{Code: "S10", Kind: XSmallUp, Up: 4, RU: "Малая: цвет +4, остальные −4", EN: "Small: colour +4, the others −4", Source: FilledIn},
	{Code: "S11", Kind: XSmallUp, Up: 5, RU: "Малая: цвет +5, остальные −5", EN: "Small: colour +5, the others −5", Source: FilledIn},
	{Code: "S12", Kind: XSmallUp, Up: 6, RU: "Малая: цвет +6, остальные −6", EN: "Small: colour +6, the others −6", Source: FilledIn},
	{Code: "S13", Kind: XSmallUp, Up: 1, RU: "Малая: цвет +1, остальные −1", EN: "Small: colour +1, the others −1", Source: FilledIn},
	{Code: "S14", Kind: XSmallUp, Up: 2, RU: "Малая: цвет +2, остальные −2", EN: "Small: colour +2, the others −2", Source: FilledIn},
	{Code: "S15", Kind: XSmallUp, Up: 3, RU: "Малая: цвет +3, остальные −3", EN: "Small: colour +3, the others −3", Source: FilledIn},
	{Code: "S16", Kind: XSmallUp, Up: 4, RU: "Малая: цвет +4, остальные −4", EN: "Small: colour +4, the others −4", Source: FilledIn},
	{Code: "S17", Kind: XSmallUp, Up: 5, RU: "Малая: цвет +5, остальные −5", EN: "Small: colour +5, the others −5", Source: FilledIn},
	{Code: "S18", Kind: XSmallUp, Up: 6, RU: "Малая: цвет +6, остальные −6", EN: "Small: colour +6, the others −6", Source: FilledIn},
	{Code: "S19", Kind: XSmallDown, Down: 2, RU: "Малая: цвет −2", EN: "Small: colour −2", Source: FilledIn},
	{Code: "S20", Kind: XSmallDown, Down: 3, RU: "Малая: цвет −3", EN: "Small: colour −3", Source: FilledIn},
	{Code: "S21", Kind: XSmallDown, Down: 4, RU: "Малая: цвет −4", EN: "Small: colour −4", Source: FilledIn},
	{Code: "S22", Kind: XSmallDown, Down: 5, RU: "Малая: цвет −5", EN: "Small: colour −5", Source: FilledIn},
	{Code: "S23", Kind: XSmallDown, Down: 6, RU: "Малая: цвет −6", EN: "Small: colour −6", Source: FilledIn},
	{Code: "S24", Kind: XSmallDown, Down: 7, RU: "Малая: цвет −7", EN: "Small: colour −7", Source: FilledIn},
	{Code: "S25", Kind: XSmallDown, Down: 2, RU: "Малая: цвет −2", EN: "Small: colour −2", Source: FilledIn},
	{Code: "S26", Kind: XSmallDown, Down: 3, RU: "Малая: цвет −3", EN: "Small: colour −3", Source: FilledIn},
	{Code: "S27", Kind: XSmallDown, Down: 4, RU: "Малая: цвет −4", EN: "Small: colour −4", Source: FilledIn},
	{Code: "S28", Kind: XSmallDown, Down: 5, RU: "Малая: цвет −5", EN: "Small: colour −5", Source: FilledIn},
	{Code: "S29", Kind: XSmallDown, Down: 6, RU: "Малая: цвет −6", EN: "Small: colour −6", Source: FilledIn},
	{Code: "S30", Kind: XSmallDown, Down: 7, RU: "Малая: цвет −7", EN: "Small: colour −7", Source: FilledIn},
	{Code: "S31", Kind: XSmallDown, Down: 2, RU: "Малая: цвет −2", EN: "Small: colour −2", Source: FilledIn},
	{Code: "S32", Kind: XSmallDown, Down: 3, RU: "Малая: цвет −3", EN: "Small: colour −3", Source: FilledIn},
	{Code: "S33", Kind: XSmallDown, Down: 4, RU: "Малая: цвет −4", EN: "Small: colour −4", Source: FilledIn},
	{Code: "S34", Kind: XSmallDown, Down: 5, RU: "Малая: цвет −5", EN: "Small: colour −5", Source: FilledIn},
	{Code: "S35", Kind: XSmallDown, Down: 6, RU: "Малая: цвет −6", EN: "Small: colour −6", Source: FilledIn},
	{Code: "S36", Kind: XSmallDown, Down: 7, RU: "Малая: цвет −7", EN: "Small: colour −7", Source: FilledIn},
}

// Deck sizes.
const (
	NumLarge = 24
	NumSmall = 36
)
