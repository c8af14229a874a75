package western

// The board of «Вестерн». The rule text (western.ru.txt, RULES.md W-0…W-41)
// fixes some cells by number and role; those are marked FromRules. The
// printed board itself is not in the texts: every other cell, every price
// and profit of an ordinary holding and every amount the texts leave open is
// our choice and marked FilledIn (or, on a FromRules cell, commented
// "amount filled-in").
//
// Regions:
//
//	1..90    the main loop (the business path), 90 leads back to 1
//	91..110  the slippery path, from fork 5; 110 leads out to the red market 26
//	111..113 the sea route to the colony, from fork 48
//	114..129 the colony, from the sea route or the travel agency at 57
//	130      the desert island, back to 90

// NumCells is the highest cell number.
const NumCells = 130

// Board is indexed by cell number; Board[0] is unused (zero Cell).
var Board = [NumCells + 1]Cell{
	// ---- Main loop, 1..30 ----
	1:  {N: 1, Kind: KStart, RU: "Старт", EN: "Start", Next: []int{2}, Source: FromRules},
	2:  {N: 2, Kind: KHolding, RU: "Главная улица", EN: "Main Street", Group: GStreet, Price: 2000, Profit: 300, Next: []int{3}, Source: FilledIn},
	3:  {N: 3, Kind: KNarcoBuy, RU: "Покупка наркотика", EN: "Buy narcotics", Amount: 100, Next: []int{4}, Source: FromRules},
	4:  {N: 4, Kind: KBribe, RU: "Подкуп полиции", EN: "Police bribe", Price: 2000, Next: []int{5}, Source: FromRules}, // amount filled-in
	5:  {N: 5, Kind: KPlain, RU: "Развилка", EN: "Fork", Next: []int{6, 91}, Source: FromRules},                        // fork to the slippery path (W-4, W-20)
	6:  {N: 6, Kind: KHolding, RU: "Кузница", EN: "Smithy", Group: GFirm, Price: 3000, Profit: 450, Next: []int{7}, Source: FilledIn},
	7:  {N: 7, Kind: KLabour, RU: "Биржа труда +1", EN: "Labour exchange +1", Labour: +1, Next: []int{8}, Source: FilledIn},
	8:  {N: 8, Kind: KBank, RU: "Банк", EN: "Bank", Next: []int{9}, Source: FromRules},
	9:  {N: 9, Kind: KAuction, RU: "Торги", EN: "Auction", Next: []int{10}, Source: FromRules},
	10: {N: 10, Kind: KHolding, RU: "ХММ", EN: "HMM", Group: GFirm, Price: 20000, Profit: 3000, Next: []int{11}, Source: FromRules}, // amount filled-in
	11: {N: 11, Kind: KHolding, RU: "Улица Бродвей", EN: "Broadway", Group: GStreet, Price: 4000, Profit: 600, Next: []int{12}, Source: FilledIn},
	12: {N: 12, Kind: KHolding, RU: "Салун", EN: "Saloon", Group: GFirm, Price: 5000, Profit: 1000, Next: []int{13}, Source: FilledIn},
	13: {N: 13, Kind: KPlain, RU: "Прерия", EN: "Prairie", Next: []int{14}, Source: FilledIn},
	14: {N: 14, Kind: KExchange, RU: "Биржа", EN: "Exchange", Next: []int{15}, Source: FromRules},
	15: {N: 15, Kind: KMarket, RU: "Рынок сбыта", EN: "Market", Next: []int{16}, Source: FromRules},
	16: {N: 16, Kind: KHolding, RU: "Ранчо", EN: "Ranch", Group: GFirm, Price: 6000, Profit: 900, Next: []int{17}, Source: FilledIn},
	17: {N: 17, Kind: KHolding, RU: "Лесопилка", EN: "Sawmill", Group: GFirm, Price: 7000, Profit: 1050, Next: []int{18}, Source: FilledIn},
	18: {N: 18, Kind: KSpeculation, RU: "Биржевая спекуляция ×3", EN: "Speculation ×3", Mult: 6, Next: []int{19}, Source: FromRules},
	19: {N: 19, Kind: KLabour, RU: "Биржа труда −1", EN: "Labour exchange −1", Labour: -1, Next: []int{20}, Source: FilledIn},
	20: {N: 20, Kind: KBank, RU: "Банк", EN: "Bank", Next: []int{21}, Source: FromRules},
	21: {N: 21, Kind: KHolding, RU: "Фронт-стрит", EN: "Front Street", Group: GStreet, Price: 5000, Profit: 750, Next: []int{22}, Source: FilledIn},
	22: {N: 22, Kind: KHolding, RU: "Гостиница", EN: "Hotel", Group: GFirm, Price: 8000, Profit: 1200, Next: []int{23}, Source: FilledIn},
	23: {N: 23, Kind: KPlain, RU: "Кактусы", EN: "Cactus flats", Next: []int{24}, Source: FilledIn},
	24: {N: 24, Kind: KSpeculation, RU: "Биржевая спекуляция ×1,5", EN: "Speculation ×1.5", Mult: 3, Next: []int{25}, Source: FromRules},
	25: {N: 25, Kind: KPlain, RU: "Каньон", EN: "Canyon", Next: []int{26}, Source: FilledIn},
	26: {N: 26, Kind: KMarket, RU: "Красный рынок", EN: "Red market", Next: []int{27}, Source: FromRules},
	27: {N: 27, Kind: KBank, RU: "Банк", EN: "Bank", Next: []int{28}, Source: FromRules},
	28: {N: 28, Kind: KHolding, RU: "Скотобойня", EN: "Slaughterhouse", Group: GFirm, Price: 10000, Profit: 1500, Next: []int{29}, Source: FilledIn},
	29: {N: 29, Kind: KHolding, RU: "Улица Вязов", EN: "Elm Street", Group: GStreet, Price: 6000, Profit: 900, Next: []int{30}, Source: FilledIn},
	30: {N: 30, Kind: KLabour, RU: "Биржа труда +1", EN: "Labour exchange +1", Labour: +1, Next: []int{31}, Source: FilledIn},

	// ---- Main loop, 31..60 ----
	31: {N: 31, Kind: KHolding, RU: "Универмаг", EN: "General store", Group: GFirm, Price: 7000, Profit: 1400, Next: []int{32}, Source: FilledIn},
	32: {N: 32, Kind: KHolding, RU: "Дилижанс", EN: "Stagecoach line", Group: GFirm, Price: 9000, Profit: 1350, Next: []int{33}, Source: FilledIn},
	33: {N: 33, Kind: KMarket, RU: "Рынок сбыта", EN: "Market", Next: []int{34}, Source: FromRules},
	34: {N: 34, Kind: KPlain, RU: "Пустыня", EN: "Desert", Next: []int{35}, Source: FilledIn},
	35: {N: 35, Kind: KHolding, RU: "Газета «Вестник»", EN: "The Herald", Group: GMedia, Price: 15000, Profit: 2250, Next: []int{36}, Source: FromRules}, // amount filled-in
	36: {N: 36, Kind: KHolding, RU: "Серебряный рудник", EN: "Silver mine", Group: GFirm, Price: 18000, Profit: 2700, Next: []int{37}, Source: FilledIn},
	37: {N: 37, Kind: KHolding, RU: "Улица Вашингтона", EN: "Washington Street", Group: GStreet, Price: 8000, Profit: 1200, Next: []int{38}, Source: FilledIn},
	38: {N: 38, Kind: KHolding, RU: "Пивоварня", EN: "Brewery", Group: GFirm, Price: 10000, Profit: 2000, Next: []int{39}, Source: FilledIn},
	39: {N: 39, Kind: KPlain, RU: "Форт", EN: "Fort", Next: []int{40}, Source: FilledIn},
	40: {N: 40, Kind: KHolding, RU: "Текстильная фабрика", EN: "Textile mill", Group: GFirm, Price: 12000, Profit: 1800, Next: []int{41}, Source: FilledIn},
	41: {N: 41, Kind: KLabour, RU: "Биржа труда −1", EN: "Labour exchange −1", Labour: -1, Next: []int{42}, Source: FilledIn},
	42: {N: 42, Kind: KHolding, RU: "Оружейный завод", EN: "Gun works", Group: GFirm, Price: 20000, Profit: 3000, Next: []int{43}, Source: FilledIn},
	43: {N: 43, Kind: KHolding, RU: "Пятая авеню", EN: "Fifth Avenue", Group: GStreet, Price: 12000, Profit: 2400, Next: []int{44}, Source: FilledIn},
	44: {N: 44, Kind: KPlain, RU: "Кладбище", EN: "Boot Hill", Next: []int{45}, Source: FilledIn},
	45: {N: 45, Kind: KBank, RU: "Банк", EN: "Bank", Next: []int{46}, Source: FromRules},
	46: {N: 46, Kind: KHolding, RU: "Пароходство", EN: "Steamship line", Group: GFirm, Price: 25000, Profit: 3750, Next: []int{47}, Source: FilledIn},
	47: {N: 47, Kind: KPlain, RU: "Холмы", EN: "Hills", Next: []int{48}, Source: FilledIn},
	48: {N: 48, Kind: KPlain, RU: "Гавань", EN: "Harbour", Next: []int{49, 111}, Source: FromRules}, // fork: by sea to the colony (W-4, W-30)
	49: {N: 49, Kind: KHolding, RU: "Верфь", EN: "Shipyard", Group: GFirm, Price: 28000, Profit: 4200, Next: []int{50}, Source: FilledIn},
	50: {N: 50, Kind: KHolding, RU: "Уолл-стрит", EN: "Wall Street", Group: GStreet, Price: 15000, Profit: 3000, Next: []int{51}, Source: FilledIn},
	51: {N: 51, Kind: KHolding, RU: "Угольная шахта", EN: "Coal mine", Group: GFirm, Price: 16000, Profit: 2400, Next: []int{52}, Source: FilledIn},
	52: {N: 52, Kind: KPlain, RU: "Водопой", EN: "Watering hole", Next: []int{53}, Source: FilledIn},
	53: {N: 53, Kind: KLabour, RU: "Биржа труда +1", EN: "Labour exchange +1", Labour: +1, Next: []int{54}, Source: FilledIn},
	54: {N: 54, Kind: KHolding, RU: "Табачная фабрика", EN: "Tobacco factory", Group: GFirm, Price: 14000, Profit: 2100, Next: []int{55}, Source: FilledIn},
	55: {N: 55, Kind: KPlain, RU: "Водопад", EN: "Waterfall", Next: []int{56}, Source: FilledIn},
	56: {N: 56, Kind: KHolding, RU: "МММ", EN: "MMM", Group: GLeading, Good: Cola, Price: 40000, Profit: 0, Next: []int{57}, Source: FromRules}, // amount filled-in
	57: {N: 57, Kind: KTravel, RU: "Турбюро", EN: "Travel agency", Price: 500, Next: []int{58, 114}, Source: FromRules},                         // fork to «Порт-Янки» (W-4, W-30)
	58: {N: 58, Kind: KHolding, RU: "Телеграф", EN: "Telegraph", Group: GFirm, Price: 18000, Profit: 2700, Next: []int{59}, Source: FilledIn},
	59: {N: 59, Kind: KPlain, RU: "Ущелье", EN: "Gorge", Next: []int{60}, Source: FilledIn},
	60: {N: 60, Kind: KHolding, RU: "Телекомпания", EN: "TV company", Group: GMedia, Price: 20000, Profit: 3000, Next: []int{61}, Source: FilledIn},

	// ---- Main loop, 61..90 ----
	61: {N: 61, Kind: KHolding, RU: "Бульвар Сансет", EN: "Sunset Boulevard", Group: GStreet, Price: 14000, Profit: 2800, Next: []int{62}, Source: FilledIn},
	62: {N: 62, Kind: KLabour, RU: "Биржа труда −1", EN: "Labour exchange −1", Labour: -1, Next: []int{63}, Source: FilledIn},
	63: {N: 63, Kind: KHolding, RU: "Сталелитейный завод", EN: "Steelworks", Group: GFirm, Price: 30000, Profit: 4500, Next: []int{64}, Source: FilledIn},
	64: {N: 64, Kind: KExchange, RU: "Биржа", EN: "Exchange", Next: []int{65}, Source: FromRules},
	65: {N: 65, Kind: KHolding, RU: "ЭМА", EN: "EMA", Group: GLeading, Good: Cars, Price: 60000, Profit: 0, Next: []int{66}, Source: FromRules}, // amount filled-in
	66: {N: 66, Kind: KPlain, RU: "Ручей", EN: "Creek", Next: []int{67}, Source: FilledIn},
	67: {N: 67, Kind: KPlain, RU: "Перевал", EN: "Mountain pass", Next: []int{68}, Source: FilledIn},
	68: {N: 68, Kind: KHolding, RU: "Медный рудник", EN: "Copper mine", Group: GFirm, Price: 22000, Profit: 3300, Next: []int{69}, Source: FilledIn},
	69: {N: 69, Kind: KHolding, RU: "Ковбойская улица", EN: "Cowboy Street", Group: GStreet, Price: 10000, Profit: 1500, Next: []int{70}, Source: FilledIn},
	70: {N: 70, Kind: KHolding, RU: "Железная дорога", EN: "Railroad", Group: GFirm, Price: 40000, Profit: 6000, Next: []int{71}, Source: FilledIn},
	71: {N: 71, Kind: KPlain, RU: "Водокачка", EN: "Water tower", Next: []int{72}, Source: FilledIn},
	72: {N: 72, Kind: KBank, RU: "Банк", EN: "Bank", Next: []int{73}, Source: FromRules},
	73: {N: 73, Kind: KHolding, RU: "Нефтяная вышка", EN: "Oil derrick", Group: GFirm, Price: 24000, Profit: 3600, Next: []int{74}, Source: FilledIn},
	74: {N: 74, Kind: KHolding, RU: "Театр", EN: "Theatre", Group: GFirm, Price: 11000, Profit: 2200, Next: []int{75}, Source: FilledIn},
	75: {N: 75, Kind: KLabour, RU: "Биржа труда +1", EN: "Labour exchange +1", Labour: +1, Next: []int{76}, Source: FilledIn},
	76: {N: 76, Kind: KHolding, RU: "Улица Миссисипи", EN: "Mississippi Street", Group: GStreet, Price: 9000, Profit: 1350, Next: []int{77}, Source: FilledIn},
	77: {N: 77, Kind: KPlain, RU: "Развилка", EN: "Fork", Next: []int{78, 84}, Source: FromRules}, // fork; the short road past 78..83 is filled-in (W-4)
	78: {N: 78, Kind: KHolding, RU: "Конный завод", EN: "Stud farm", Group: GFirm, Price: 13000, Profit: 1950, Next: []int{79}, Source: FilledIn},
	79: {N: 79, Kind: KPlain, RU: "Большой каньон", EN: "Grand Canyon", Next: []int{80}, Source: FilledIn},
	80: {N: 80, Kind: KPlain, RU: "Пещера", EN: "Cave", Next: []int{81}, Source: FilledIn},
	81: {N: 81, Kind: KSpeculation, RU: "Биржевая спекуляция ×1,5", EN: "Speculation ×1.5", Mult: 3, Next: []int{82}, Source: FromRules},
	82: {N: 82, Kind: KHolding, RU: "Казино", EN: "Casino", Group: GFirm, Price: 26000, Profit: 6500, Next: []int{83}, Source: FilledIn},
	83: {N: 83, Kind: KPlain, RU: "Мост", EN: "Bridge", Next: []int{84}, Source: FilledIn},
	84: {N: 84, Kind: KHolding, RU: "Газета «Фронтир»", EN: "Frontier Gazette", Group: GMedia, Price: 16000, Profit: 2400, Next: []int{85}, Source: FilledIn},
	85: {N: 85, Kind: KLabour, RU: "Биржа труда −1", EN: "Labour exchange −1", Labour: -1, Next: []int{86}, Source: FilledIn},
	86: {N: 86, Kind: KHolding, RU: "Маркет-стрит", EN: "Market Street", Group: GStreet, Price: 11000, Profit: 1650, Next: []int{87}, Source: FilledIn},
	87: {N: 87, Kind: KExchange, RU: "Биржа", EN: "Exchange", Next: []int{88}, Source: FromRules},
	88: {N: 88, Kind: KHolding, RU: "Нефтеперегонный завод", EN: "Oil refinery", Group: GFirm, Price: 35000, Profit: 5250, Next: []int{89}, Source: FilledIn},
	89: {N: 89, Kind: KTanker, RU: "Танкер", EN: "Tanker", Points: 1, Amount: 1, Next: []int{90}, Source: FromRules}, // amount filled-in
	90: {N: 90, Kind: KPlain, RU: "Пристань", EN: "Pier", Next: []int{1}, Source: FilledIn},

	// ---- Slippery path, 91..110 (from fork 5; out from 110 to the red market 26) ----
	91:  {N: 91, Kind: KClan, RU: "Преступный клан", EN: "Crime clan", Slippy: true, Next: []int{92}, Source: FromRules},
	92:  {N: 92, Kind: KPrison, RU: "Тюрьма", EN: "Prison", Turns: 1, Slippy: true, Next: []int{93}, Source: FromRules}, // amount filled-in
	93:  {N: 93, Kind: KCrime, RU: "Грабёж", EN: "Robbery", Amount: 3000, Slippy: true, Next: []int{94}, Source: FilledIn},
	94:  {N: 94, Kind: KNarcoSell, RU: "Сбыт наркотика", EN: "Sell narcotics", Amount: 300, Slippy: true, Next: []int{95}, Source: FilledIn},
	95:  {N: 95, Kind: KCrime, RU: "Налёт", EN: "Heist", Amount: 5000, Slippy: true, Next: []int{96}, Source: FilledIn},
	96:  {N: 96, Kind: KPrison, RU: "Тюрьма", EN: "Prison", Turns: 1, Slippy: true, Next: []int{97}, Source: FromRules}, // amount filled-in
	97:  {N: 97, Kind: KCrime, RU: "Взлом сейфа", EN: "Safe-cracking", Amount: 10000, Slippy: true, Next: []int{98}, Source: FilledIn},
	98:  {N: 98, Kind: KNarcoSell, RU: "Сбыт наркотика", EN: "Sell narcotics", Amount: 500, Slippy: true, Next: []int{99}, Source: FilledIn},
	99:  {N: 99, Kind: KRaid, RU: "Облава", EN: "Police raid", Turns: 2, Slippy: true, Next: []int{100}, Source: FilledIn},
	100: {N: 100, Kind: KPlain, RU: "Развилка", EN: "Fork", Slippy: true, Next: []int{101, 104}, Source: FromRules},       // fork (W-4); the way past 101..103 is filled-in
	101: {N: 101, Kind: KPrison, RU: "Тюрьма", EN: "Prison", Turns: 1, Slippy: true, Next: []int{102}, Source: FromRules}, // amount filled-in
	102: {N: 102, Kind: KNarcoSell, RU: "Сбыт наркотика", EN: "Sell narcotics", Amount: 700, Slippy: true, Next: []int{103}, Source: FilledIn},
	103: {N: 103, Kind: KPrison, RU: "Тюрьма", EN: "Prison", Turns: 1, Slippy: true, Next: []int{104}, Source: FromRules}, // amount filled-in
	104: {N: 104, Kind: KCrime, RU: "Вымогательство", EN: "Extortion", Amount: 15000, Slippy: true, Next: []int{105}, Source: FilledIn},
	105: {N: 105, Kind: KPrison, RU: "Тюрьма", EN: "Prison", Turns: 2, Slippy: true, Next: []int{106}, Source: FromRules}, // amount filled-in
	106: {N: 106, Kind: KGodfather, RU: "Крёстный отец", EN: "Godfather", Slippy: true, Next: []int{107}, Source: FromRules},
	107: {N: 107, Kind: KPrison, RU: "Тюрьма", EN: "Prison", Turns: 2, Slippy: true, Next: []int{108}, Source: FromRules}, // amount filled-in
	108: {N: 108, Kind: KNarcoSell, RU: "Сбыт наркотика", EN: "Sell narcotics", Amount: 1000, Slippy: true, Next: []int{109}, Source: FilledIn},
	109: {N: 109, Kind: KRaid, RU: "Облава", EN: "Police raid", Turns: 2, Slippy: true, Next: []int{110}, Source: FilledIn},
	110: {N: 110, Kind: KPrison, RU: "Тюрьма", EN: "Prison", Turns: 2, Slippy: true, Next: []int{26}, Source: FromRules}, // amount filled-in; exit to 26 (W-25)

	// ---- Sea route to the colony, 111..113 (from fork 48, and from 129) ----
	111: {N: 111, Kind: KMutiny, RU: "Бунт на корабле", EN: "Mutiny", Amount: 1000, Next: []int{112}, Source: FilledIn}, // role from W-30, number ours
	112: {N: 112, Kind: KPirates, RU: "Пираты", EN: "Pirates", Next: []int{113}, Source: FilledIn},                      // role from W-30, number ours
	113: {N: 113, Kind: KReefs, RU: "Рифы", EN: "Reefs", Next: []int{114}, Source: FromRules},

	// ---- Colony, 114..129 (W-30..W-34); the roles are from W-32, most numbers are ours ----
	114: {N: 114, Kind: KPort, RU: "Порт-Янки", EN: "Port Yankee", Colony: true, Next: []int{115}, Source: FilledIn},                                                                    // role from W-30, number ours
	115: {N: 115, Kind: KHolding, RU: "Опиумная плантация", EN: "Opium plantation", Group: GPlantation, Price: 20000, Profit: 40000, Colony: true, Next: []int{116}, Source: FilledIn},  // role from W-32, number ours
	116: {N: 116, Kind: KHolding, RU: "Кофейная плантация", EN: "Coffee plantation", Group: GPlantation, Price: 15000, Profit: 15000, Colony: true, Next: []int{117}, Source: FilledIn}, // role from W-32, number ours
	117: {N: 117, Kind: KHolding, RU: "Бампер", EN: "Bumper", Group: GLeading, Price: 30000, Profit: 30000, Colony: true, Next: []int{118}, Source: FromRules},                          // amount filled-in
	118: {N: 118, Kind: KBank, RU: "Банк", EN: "Bank", Colony: true, Next: []int{119}, Source: FromRules},
	119: {N: 119, Kind: KColonyLoan, RU: "Беспроцентный заём", EN: "Interest-free loan", Colony: true, Next: []int{120}, Source: FilledIn},       // role from W-32, number ours
	120: {N: 120, Kind: KTrinkets, RU: "Безделушки", EN: "Trinkets", Price: 200, Amount: 2000, Colony: true, Next: []int{121}, Source: FilledIn}, // role and $200 from W-32, number and amount ours
	121: {N: 121, Kind: KKlondike, RU: "Клондайк", EN: "Klondike", Points: 1, Amount: 1, Colony: true, Next: []int{122}, Source: FilledIn},       // role from W-15/W-32, number and amounts ours
	122: {N: 122, Kind: KHolding, RU: "Сахарная плантация", EN: "Sugar plantation", Group: GPlantation, Price: 12000, Profit: 12000, Colony: true, Next: []int{123}, Source: FilledIn},
	123: {N: 123, Kind: KPlain, RU: "Джунгли", EN: "Jungle", Colony: true, Next: []int{124}, Source: FilledIn},
	124: {N: 124, Kind: KHolding, RU: "Табачная плантация", EN: "Tobacco plantation", Group: GPlantation, Price: 18000, Profit: 18000, Colony: true, Next: []int{125}, Source: FilledIn},
	125: {N: 125, Kind: KPlain, RU: "Вулкан", EN: "Volcano", Colony: true, Next: []int{126}, Source: FilledIn},
	126: {N: 126, Kind: KHolding, RU: "Каучуковая плантация", EN: "Rubber plantation", Group: GPlantation, Price: 25000, Profit: 25000, Colony: true, Next: []int{127}, Source: FilledIn},
	127: {N: 127, Kind: KPlain, RU: "Туземная деревня", EN: "Native village", Colony: true, Next: []int{128}, Source: FilledIn},
	128: {N: 128, Kind: KHolding, RU: "Хлопковая плантация", EN: "Cotton plantation", Group: GPlantation, Price: 10000, Profit: 10000, Colony: true, Next: []int{129}, Source: FilledIn},
	129: {N: 129, Kind: KExpropriation, RU: "Экспроприация", EN: "Expropriation", Colony: true, Next: []int{130, 111}, Source: FromRules}, // fork: the island, or one more lap by sea (W-34)

	// ---- The way back (W-34) ----
	130: {N: 130, Kind: KIsland, RU: "Необитаемый остров", EN: "Desert island", Next: []int{90}, Source: FilledIn}, // role from W-34, number ours
}

// Goods is indexed by Good (Goods[NoGood] unused). The per-point prices are
// printed in the board's centre, which the texts do not give (W-15).
var Goods = [numGoods]GoodInfo{
	Cars: {Good: Cars, RU: "Автомобили", EN: "Cars", PerPoint: 200, Source: FilledIn},
	Cola: {Good: Cola, RU: "Кока-кола", EN: "Coca-cola", PerPoint: 150, Source: FilledIn},
	Oil:  {Good: Oil, RU: "Нефть", EN: "Oil", PerPoint: 300, Source: FilledIn},
	Gold: {Good: Gold, RU: "Золото", EN: "Gold", PerPoint: 500, Source: FilledIn},
}
