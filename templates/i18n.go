package templates

// texts holds every phrase of the pages in Russian and English.
var texts = map[string][2]string{
	"title":          {"Игры по почте", "Play by mail"},
	"western":        {"Вестерн", "Western"},
	"businessman":    {"Бизнесмен", "Businessman"},
	"create":         {"Новая игра", "New game"},
	"create_btn":     {"Создать и разослать приглашения", "Create and send invitations"},
	"game":           {"Игра", "Game"},
	"laps":           {"Число кругов", "Laps"},
	"beginners":      {"Вариант для начинающих", "Beginners' variant"},
	"organiser":      {"Организатор", "Organiser"},
	"your_name":      {"Ваше имя", "Your name"},
	"your_email":     {"Ваша почта", "Your email"},
	"language":       {"Язык", "Language"},
	"players":        {"Игроки", "Players"},
	"player":         {"Игрок", "Player"},
	"name":           {"Имя", "Name"},
	"email":          {"Почта", "Email"},
	"seats_hint":     {"Заполните от 2 до 6 игроков; пустые строки пропускаются.", "Fill in 2 to 6 players; empty rows are skipped."},
	"accepted":       {"принял", "accepted"},
	"waiting":        {"ждём ответа", "waiting"},
	"start":          {"Начать с принявшими", "Start with those who accepted"},
	"status_invited": {"ждём игроков", "waiting for players"},
	"status_playing": {"идёт", "in play"},
	"status_over":    {"окончена", "over"},
	"invite_title":   {"Приглашение в игру", "Invitation to a game"},
	"invite_text":    {"Вас приглашают сыграть по почте. Ходы приходят письмом, когда наступает ваша очередь.", "You are invited to a play-by-mail game. You get a mail whenever it is your turn."},
	"accept":         {"Принять приглашение", "Accept the invitation"},
	"your_turn":      {"Ваш ход", "Your move"},
	"not_your_turn":  {"Сейчас ходите не вы. Мы напишем, когда придёт ваша очередь.", "It is not your turn. We will mail you when it is."},
	"game_over":      {"Игра окончена", "The game is over"},
	"standings":      {"Итоги", "Standings"},
	"net_worth":      {"Капитал", "Net worth"},
	"cash":           {"Наличные", "Cash"},
	"deposit":        {"Вклад", "Deposit"},
	"credit":         {"Кредит", "Credit"},
	"cell":           {"Клетка", "Cell"},
	"laps_done":      {"Круги", "Laps"},
	"holdings":       {"Владения", "Holdings"},
	"goods":          {"Товары", "Goods"},
	"amount":         {"Сумма", "Amount"},
	"do":             {"Сделать", "Do it"},
	"organiser_page": {"Страница организатора", "Organiser's page"},
	"spectator_link": {"Ссылка для зрителей", "Spectators' link"},
	"seat_links":     {"Приглашения", "Invitations"},
	"error":          {"Ошибка", "Error"},
	"back":           {"На главную", "Home"},
	"already_done":   {"Этот ход уже сделан. Вот как обстоят дела сейчас.", "That move was already made. Here is where things stand now."},
	"place":          {"Место", "Place"},
	"bankrupt":       {"банкрот", "bankrupt"},
	"events":         {"Что произошло", "What happened"},
}

// T translates a key; an unknown key is shown as it is, so a missing text
// is visible rather than blank.
func T(lang, key string) string {
	p, ok := texts[key]
	if !ok {
		return key
	}
	if lang == "en" {
		return p[1]
	}
	return p[0]
}
