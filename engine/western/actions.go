package western

import "github.com/pbmgames/pbm/engine"

// Action types of «Вестерн». Amount-bearing ones are ranged choices.
const (
	ARoll       = "roll"        // W-2
	AFork       = "fork"        // Cell: the path taken (W-4)
	ABuy        = "buy"         // Cell (W-5)
	ASell       = "sell"        // Cell, to the bank at par (W-7)
	ASpecSell   = "spec_sell"   // Cell, to the bank at the speculation multiple (W-17)
	ACredit     = "credit"      // Amount (W-11)
	ADeposit    = "deposit"     // Amount (W-11, W-13)
	AWithdraw   = "withdraw"    // Amount (W-11)
	ARepay      = "repay"       // Amount of credit (W-11, W-12)
	ARepayLoan  = "repay_loan"  // Amount of the colony loan (W-32)
	ASellGood   = "sell_good"   // Good, Amount in units (W-15, W-16)
	ADropGood   = "drop_good"   // Good: the newspaper owner drops its rate (W-15)
	AOffer      = "offer"       // Cell, Target: offer to buy a rival's share at 1.5× (W-18)
	AAccept     = "accept"      // the offered seat sells (W-18)
	ADecline    = "decline"     // the offered seat keeps it (W-18, default)
	ABid        = "bid"         // Amount, sealed (W-19)
	APass       = "pass"        // no bid (W-19, default)
	ANarcoBuy   = "narco_buy"   // Amount in tons (W-21)
	ANarcoSell  = "narco_sell"  // Amount in tons (W-21)
	ABribe      = "bribe"       // W-23
	ASurrender  = "surrender"   // give up the loot to the raid (W-24)
	APrison     = "prison"      // go to prison instead (W-24, default)
	AColonyLoan = "colony_loan" // W-32
	ATrinkets   = "trinkets"    // W-32
	AEnd        = "end"         // end the turn
	AResign     = engine.Resign // leave the game: out, as if bankrupt (P-4)
)

// Secret tells whether an action is secret from the other seats (P-3): a
// sealed bid (or pass) is its bidder's alone, its amount for good (W-19).
func Secret(a engine.Action) bool { return a.Type == ABid || a.Type == APass }

// Bits of State.Used: the once-a-stop cell actions already taken.
const (
	usedBuy uint32 = 1 << iota
	usedOffer
	usedNarcoBuy
	usedNarcoSell
	usedBribe
	usedDrop
	usedColonyLoan
	usedTrinkets
	usedSellCars // one sale of each good a market visit (W-16: half of cars and cola)
	usedSellCola
	usedSellOil
	usedSellGold
)

func usedSell(g Good) uint32 { return usedSellCars << (g - Cars) }
