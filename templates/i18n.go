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
	"link_personal":  {"Ссылка личная: не пересылайте это письмо.", "This link is yours alone: do not forward this mail."},
	"your_position":  {"Ваше положение", "Your position"},
	"since_last":     {"С вашего прошлого хода", "Since your last move"},
	"board_alt":      {"Поле игры: клетки, владения и фишки игроков", "The board: cells, holdings and the players' tokens"},
	"my_games":       {"Мои игры и настройки писем", "My games and mail settings"},
	"unsubscribe":    {"Отписаться от всех писем, кроме своих ходов", "Unsubscribe from everything but your own moves"},
	"mail_footer":    {"Игры по почте: письмо приходит, когда нужен ваш ход.", "Play by mail: you get a mail when your move is needed."},
	"mail_invite":    {"Вас приглашают сыграть по почте. Ходы делаются на странице игры; письмо приходит, когда наступает ваша очередь.", "You are invited to a play-by-mail game. Moves are made on the game's page; you get a mail whenever it is your turn."},
	"deadline":       {"Ответить до", "Answer by"},
	"default_then":   {"Иначе будет выбрано", "Otherwise the default is played"},
	"breakdown":      {"Из чего", "Made of"},
	"open_game":      {"Открыть игру", "Open the game"},
	"accept_invite":  {"Принять приглашение", "Accept the invitation"},
	"see_results":    {"Итоги и запись партии", "Results and the game's record"},
	"saved":          {"Сохранено.", "Saved."},
	"mail_pref":      {"Какие письма присылать", "Which mails to send"},
	"mail_all":       {"Все письма", "Every mail"},
	"mail_turns":     {"Только мои ходы и решения", "Only my moves and decisions"},
	"mail_digest":    {"Мои ходы сразу, остальное раз в день", "My moves at once, the rest once a day"},
	"unsub_all":      {"Отписаться от всего, кроме своих ходов", "Unsubscribe from everything but my own moves"},
	"save":           {"Сохранить", "Save"},
	"no_games":       {"Игр пока нет.", "No games yet."},
	"unsub_confirm":  {"Больше не присылать писем, кроме писем о ваших ходах и решениях? Их нельзя отключить, не выйдя из игры.", "Stop every mail except those about your own moves and decisions? Those cannot be silenced without leaving the game."},
	"unsub_done":     {"Готово: теперь приходят только письма о ваших ходах и решениях.", "Done: you now get only the mails about your own moves and decisions."},
	"your_move_now":  {"ваш ход", "your move"},
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
