package businessmanview

// Texts are the phrases only this game's pages use, by key (templates.T):
// its name, its prompts, its groups and notes of decisions.
func (businessGame) Texts() map[string][2]string { return texts }

var texts = map[string][2]string{
	"businessman":          {"Бизнесмен", "Businessman"},
	"opt_rent_claim_auto":  {"списывается сразу, как только игрок встаёт на чужой участок", "is charged as soon as a player stops on a rival's lot"},
	"opt_rent_claim_claim": {"владелец решает, требовать ли её; игра ждёт его ответа, а без ответа аренда требуется", "the owner decides whether to claim it; the game waits for the answer and claims it when none comes"},
	"rent_claim_short":     {"аренду требует владелец", "rent on claim"},
	"xcards":               {"Карт биржи", "Exchange cards"},
	"my_xcards":            {"Ваши карты биржи — их видите только вы", "Your exchange cards — only you see them"},
	"note_get":             {"вы получите %s", "you get %s"},
	"note_pay":             {"заплатите %s", "you pay %s"},
	"note_each":            {"по %s за акцию", "%s a share"},
	"grp_cards":            {"Сыграть карту биржи", "Play an exchange card"},
	"grp_shares":           {"Биржа: акции", "Exchange: shares"},
	"grp_build":            {"Строительство", "Building"},
	"grp_deals":            {"Сделки с игроками", "Deals with players"},
}
