package westernview

// Texts are the phrases only this game's pages use, by key (templates.T):
// its name, its prompts, its groups and notes of decisions.
func (westernGame) Texts() map[string][2]string { return texts }

var texts = map[string][2]string{
	"western":         {"Вестерн", "Western"},
	"beginners":       {"Вариант для начинающих", "Beginners' variant"},
	"beginners_short": {"для начинающих", "beginners' variant"},
	"your_bid":        {"Ваша закрытая ставка: %s. Ждём ставок остальных; ставки откроются, когда торги закончатся.", "Your sealed bid: %s. Waiting for the others' bids; they are shown when the auction closes."},
	"your_pass":       {"Вы не участвуете в этих торгах. Ждём ответов остальных; ставки откроются, когда торги закончатся.", "You pass this auction. Waiting for the others; the bids are shown when the auction closes."},
	"ask_roll":        {"Вы на клетке %s. Бросайте кубик.", "You are on %s. Roll the die."},
	"ask_fork":        {"Выпало %d. Развилка на клетке %s: выберите путь (%s).", "You rolled %d. A fork at %s: choose the way (%s)."},
	"ask_act_die":     {"Выпало %d — вы на клетке %s. Выберите, что сделать здесь.", "You rolled %d and stopped on %s. Choose what to do here."},
	"ask_act":         {"Вы на клетке %s. Выберите, что сделать здесь.", "You are on %s. Choose what to do here."},
	"ask_raid":        {"Облава на клетке %s: отдайте награбленное (%s) или отправляйтесь в тюрьму.", "A police raid on %s: give up the loot (%s) or go to prison."},
	"ask_offer":       {"%s предлагает купить вашу акцию %s за %s. Согласны?", "%s offers to buy your share of %s for %s. Do you accept?"},
	"ask_auction":     {"Торги: банк продаёт %s. Закрытая ставка — от %s; до конца торгов её видите только вы.", "Auction: the bank sells %s. A sealed bid starts at %s; nobody sees it until the auction closes."},
	"grp_market":      {"Рынок: продать товар", "Market: sell goods"},
	"grp_offer":       {"Предложить выкуп акции (за полторы цены)", "Offer to buy a share (at ×1.5 its price)"},
	"grp_spec":        {"Продать акцию на бирже", "Sell a share at the speculation"},
	"grp_sell":        {"Продать акцию банку по номиналу", "Sell a share to the bank at par"},
	"note_profit":     {"доход %s за круг", "profit %s a lap"},
	"note_par":        {"получите %s", "you get %s"},
	"note_for":        {"вы получите %s", "you get %s"},
	"note_unit":       {"по %s за единицу", "%s a unit"},
	"note_ton":        {"по %s за тонну", "%s a ton"},
	"note_trinkets":   {"заплатите %s, получите %s", "pay %s, get %s"},
	"note_upto":       {"до %s", "up to %s"},
	"bid_for":         {"Ставка за %s", "Bid for %s"},
	"unit_units":      {"ед.", "units"},
	"unit_tons":       {"т", "t"},
	"sealed_bid":      {"Закрытая ставка на торгах", "A sealed bid at the auction"},
	"note_range":      {"от %s до %s", "%s to %s"},
}
