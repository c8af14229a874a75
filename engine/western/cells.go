package western

// CellKind is what a cell does when a token stops on (or passes) it.
type CellKind uint8

const (
	KPlain         CellKind = iota // nothing happens
	KStart                         // cell 1: passing or landing completes a lap (W-3)
	KHolding                       // a firm, company, plantation, street or medium for sale (W-5)
	KBank                          // credit, deposit, repayment (W-11)
	KMarket                        // goods sold at the commodity-exchange rate (W-15)
	KExchange                      // offer a rival to sell a share at 1.5× (W-18)
	KSpeculation                   // sell shares to the bank at Mult/2 × price (W-17)
	KAuction                       // the bank auctions a random free firm (W-19)
	KNarcoBuy                      // buy narcotics at Amount a ton (W-21)
	KNarcoSell                     // sell narcotics at Amount a ton (W-21)
	KBribe                         // pay Amount: protected from the low prisons for a lap (W-23)
	KClan                          // «Преступный клан»: cash doubles (W-20)
	KCrime                         // robbery, raid, safe-cracking, extortion: +Amount (W-20)
	KPrison                        // miss Turns turns, doubled with narcotics (W-22)
	KRaid                          // police raid: give up the loot or serve Turns (W-24)
	KGodfather                     // «Крёстный отец»: half of the slippery earnings (W-24)
	KLabour                        // a cell with an index: labour marker += Labour (W-16)
	KTanker                        // oil rate +Points, and the ship's cargo: Amount units of oil (W-15)
	KKlondike                      // gold rate +Points, and Amount units of gold (W-15, W-32)
	KMutiny                        // mutiny on the ship: pay Amount (W-30)
	KPirates                       // pirates take half the cash (W-30)
	KReefs                         // the reefs take the colony earnings (W-33)
	KPort                          // «Порт-Янки», where the colony begins (W-30)
	KColonyLoan                    // interest-free loan of 200% of cash (W-32)
	KTrinkets                      // trade trinkets: pay Price, get Amount (W-32)
	KExpropriation                 // takes the colony earnings (W-33); a fork (W-34)
	KIsland                        // the desert island, on the way back to 90 (W-34)
	KTravel                        // travel agency: a fork to «Порт-Янки» for Price (W-4, W-30)
)

// Group classifies holdings.
type Group uint8

const (
	GNone       Group = iota
	GFirm             // firms and companies: what the auction sells (W-19)
	GStreet           // streets
	GMedia            // newspapers and TV companies (W-10)
	GLeading          // МММ, ЭМА, «Бампер»: valued at the stock rate (W-8, W-9)
	GPlantation       // colony plantations (W-32)
)

// Source says where a datum comes from.
type Source uint8

const (
	FromRules Source = iota // the rule text fixes it
	FilledIn                // the texts do not give it; we chose it
)

func (s Source) String() string {
	if s == FromRules {
		return "rules"
	}
	return "filled-in"
}

// Cell is one square of the board. Zero fields do not apply to its Kind.
type Cell struct {
	N      int // the printed number
	Kind   CellKind
	RU, EN string // name on the board
	Group  Group
	Price  int64 // purchase price (holdings), fee (travel agency, trinkets, bribe)
	Profit int64 // dividend a lap in dollars (holdings)
	Good   Good  // leading companies: the good they produce; markets: none
	Amount int64 // money or units, per Kind
	Mult   int   // speculation: price multiple in halves (6 = ×3, 3 = ×1.5)
	Turns  int   // prison and raid: turns lost
	Labour int   // labour-exchange index: −1 or +1 (W-16)
	Points int   // rate change in points (tanker, Klondike)
	Colony bool  // a colony cell: $200 to the bank when stopped on (W-31)
	Slippy bool  // on the slippery path: money won here is loot (W-24)
	// Next lists the cells a token may go to from here; more than one makes
	// a fork (W-4). The first is the default path.
	Next   []int
	Source Source
}

// Good is a commodity (W-15).
type Good uint8

const (
	NoGood Good = iota
	Cars
	Cola
	Oil
	Gold
	numGoods
)

var goodNames = [numGoods]string{"", "cars", "cola", "oil", "gold"}

func (g Good) String() string { return goodNames[g] }

// GoodByName finds a good by its name, NoGood if unknown.
func GoodByName(s string) Good {
	for g := Cars; g < numGoods; g++ {
		if goodNames[g] == s {
			return g
		}
	}
	return NoGood
}

// GoodInfo is a line of the commodity exchange printed in the board's centre.
type GoodInfo struct {
	Good     Good
	RU, EN   string
	PerPoint int64 // price of one unit per rate point; at 10 points a unit sells at its nominal
	Source   Source
}
