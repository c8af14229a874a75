package templates

import (
	"fmt"
	"sync"
)

// texts holds every phrase of the pages in Russian and English, with
// those AddTexts adds; a game's own phrases are in its folder, read by
// its presenter (GameTexts). The map is made on the first look-up, not at start:
// making it is 38 KB and 0.05 ms of every cold start (issue 16), and the
// bounces function, or an init that fails, reads none.
var texts = sync.OnceValue(func() map[string][2]string {
	m := sharedTexts()
	for _, more := range addedTexts {
		for k, v := range more() {
			if _, taken := m[k]; taken || counted[k].arg != 0 {
				panic(fmt.Sprintf("templates: text %q added twice", k))
			}
			m[k] = v
		}
	}
	return m
})

// addedTexts are the shared phrases AddTexts adds, read with texts.
var addedTexts []func() map[string][2]string

func sharedTexts() map[string][2]string {
	return map[string][2]string{
		"local_mailbox":  {"Локальный запуск: письма никуда не уходят, их можно прочесть в почтовом ящике.", "Local run: no mail leaves this machine; read it in the mailbox."},
		"open_mailbox":   {"Открыть почтовый ящик", "Open the mailbox"},
		"title":          {"Игры по почте", "Play by mail"},
		"create":         {"Новая игра", "New game"},
		"create_btn":     {"Создать и разослать приглашения", "Create and send invitations"},
		"game":           {"Игра", "Game"},
		"laps":           {"Число кругов", "Laps"},
		"organiser":      {"Организатор", "Organiser"},
		"your_name":      {"Ваше имя", "Your name"},
		"game_name":      {"Название игры (необязательно)", "The game's name (optional)"},
		"game_name_hint": {"например, «Пятничный %s»", "e.g. Friday %s"},
		"your_email":     {"Ваша почта", "Your email"},
		"language":       {"Язык", "Language"},
		"players":        {"Игроки", "Players"},
		"player":         {"Игрок", "Player"},
		"name":           {"Имя", "Name"},
		"email":          {"Почта", "Email"},
		"seats_hint":     {"Заполните от 2 до 6 игроков; пустые строки пропускаются.", "Fill in 2 to 6 players; empty rows are skipped."},
		"accepted":       {"приглашение принято", "accepted"},
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
		"over_last_one":  {"Игра окончена: в игре остаётся один игрок.", "The game is over: one player is left in it."},
		"over_ended":     {"Игра окончена по решению организатора: места — по капиталу на этот момент.", "The organiser has ended the game: places by net worth as it stands."},
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
		"choice_changed": {"Пока страница была открыта, ваш выбор изменился. Вот что можно сделать сейчас.", "What you may do changed while the page was open. Here is what you can do now."},
		"place":          {"Место", "Place"},
		"bankrupt":       {"банкрот", "bankrupt"},
		"events":         {"Что произошло", "What happened"},
		"link_personal":  {"Ссылка личная: не пересылайте это письмо.", "This link is yours alone: do not forward this mail."},
		"your_position":  {"Ваше положение", "Your position"},
		"since_last":     {"С вашего прошлого хода", "Since your last move"},
		"by_order":       {"Сыграно по вашему приказу: %s", "Played by your standing order: %s"},
		"by_prepared":    {"Сделано ваше подготовленное предложение: %s", "Your prepared offer was made: %s"},
		"by_deadline":    {"Срок истёк, сыграно по умолчанию: %s", "The deadline passed, the default was played: %s"},
		// Standing orders (their page, the seat page, "my games").
		"orders":                        {"Постоянные приказы", "Standing orders"},
		"orders_link":                   {"Постоянные приказы: что играть за вас без письма", "Standing orders: what to play for you without a mail"},
		"orders_intro":                  {"Приказы сразу играют за вас рутинные решения — как ваши собственные ходы, с пометкой в вашей записи. Решение, которого приказы не касаются, приходит письмом, как раньше; в письме сказано, что было сыграно за вас. Приказы видите только вы. Изменения действуют с вашего следующего решения, в том числе того, что ждёт сейчас.", "Orders play routine decisions for you at once, as your own moves, marked so in what you are shown. A decision they do not cover is mailed to you as before, and the mail says what was played for you. Only you see your orders. A change takes effect from your next decision, including the one waiting now."},
		"orders_count":                  {"Приказов задано: %d", "Orders set: %d"},
		"orders_none":                   {"Приказов нет: каждое решение приходит письмом.", "No orders: every decision is mailed to you."},
		"orders_blank":                  {"Пустое поле — приказа нет, решаете вы.", "An empty field is no order: you decide."},
		"orders_save":                   {"Сохранить приказы", "Save the orders"},
		"orders_sensible":               {"Заполнить разумными приказами", "Fill in sensible orders"},
		"orders_filled":                 {"Разумные приказы подставлены в форму: проверьте их и нажмите «Сохранить приказы».", "Sensible orders are filled into the form: look them over and press «Save the orders»."},
		"orders_clear":                  {"Отменить все приказы", "Clear every order"},
		"orders_saved":                  {"Приказы сохранены.", "The orders are saved."},
		"orders_over":                   {"Игра окончена: приказы больше не нужны.", "The game is over: orders are no longer needed."},
		"orders_summary":                {"За вас сразу играют приказы: %s.", "Standing orders play for you at once: %s."},
		"orders_rest_any":               {"Остальное — письмом.", "The rest comes by mail."},
		"orders_change":                 {"Изменить или отключить приказы", "Change or turn off the orders"},
		"orders_off_btn":                {"Отключить приказы", "Turn the orders off"},
		"the_bank":                      {"Банк", "The bank"},
		"deals":                         {"Сделки", "Deals"},
		"deals_link":                    {"Сделки: предложения вам и от вас", "Deals: offers to you and from you"},
		"deals_to_me":                   {"Предложения вам", "Offers to you"},
		"deals_none_to_me":              {"Вам сейчас ничего не предлагают.", "Nobody is offering you anything now."},
		"deals_from_me":                 {"Ваши предложения ждут ответа", "Your offers awaiting an answer"},
		"deals_none_from_me":            {"Ваших предложений, ждущих ответа, нет.", "None of your offers awaits an answer."},
		"deals_prepared":                {"Подготовить предложение", "Prepare an offer"},
		"deals_prepared_note":           {"Подготовленное предложение сделают от вас в начале вашего следующего хода (как только правила его позволят); игра не ждёт ответа — другой игрок ответит в своё время.", "A prepared offer is made for you at the start of your next turn (as soon as the rules allow it); the game does not wait for the answer: the other player answers in their own time."},
		"deals_nothing_to_prepare":      {"Сейчас подготовить нечего.", "Nothing to prepare now."},
		"deal_accept":                   {"Согласиться", "Accept"},
		"deal_decline_btn":              {"Отказаться", "Decline"},
		"deal_buy":                      {"Купить", "Buy"},
		"deal_pass":                     {"Не покупать", "Don't buy"},
		"deal_counter":                  {"Встречное предложение вместо ответа", "A counter-offer instead of an answer"},
		"deal_no_counter":               {"— только подготовить —", "— just prepare it —"},
		"deal_prepare_btn":              {"Подготовить", "Prepare"},
		"deal_withdraw":                 {"Отозвать", "Withdraw"},
		"deal_unmade":                   {"Не удалось сделать: уже невозможно", "Could not be made: no longer possible"},
		"deals_waiting":                 {"Ждут вашего ответа: %d", "Awaiting your answer: %d"},
		"deal_answer_any_time":          {"Ответить можно в любой момент до срока: игра идёт своим чередом, сделка совершится, если к тому времени ещё возможна. Можно и сделать встречное предложение — его сделают от вас в начале вашего хода.", "You may answer at any time before the deadline: the game goes on meanwhile, and the deal is done if it is still possible then. You may also make a counter-offer: it is made for you at the start of your turn."},
		"deal_decline":                  {"отказ", "decline"},
		"deal_hold_prompt":              {"Покупать или нет — решите в любой момент до срока: игра идёт своим чередом, а клетку до тех пор никто другой не купит. Купите, если к тому времени хватит наличных.", "Decide whether to buy at any time before the deadline: the game goes on meanwhile, and nobody else may buy the cell until then. It is bought if you have the cash then."},
		"deal_open_page":                {"Ответить", "Answer"},
		"accept_orders_off":             {"Принять и решать всё самому", "Accept and decide everything myself"},
		"orders_after_accept":           {"Изменить или отключить их можно на странице игры, когда примете приглашение.", "You can change or turn them off from the game's page once you accept."},
		"order_short_roll":              {"бросок кубика", "the roll"},
		"order_short_end_turn":          {"конец хода", "ending the turn"},
		"order_short_buy_below":         {"покупка клетки до %s", "buying the cell you stop on up to %s"},
		"order_short_keep_cash":         {"с запасом %s", "keeping %s in cash"},
		"order_short_spend_pct":         {"не больше %d%% наличных за раз", "at most %d%% of your cash at once"},
		"order_short_skip_extras":       {"отказ от прочего на клетке", "declining a cell's extras"},
		"order_short_fork_main":         {"главная дорога на развилках", "the main road at forks"},
		"order_short_sell_goods":        {"продажа товаров на рынке", "selling goods at markets"},
		"order_short_spec_pct":          {"продажа акций на спекуляции от %d%%", "selling shares at speculation from %d%%"},
		"order_short_bank":              {"банк: долг и вклад", "the bank: credit and deposit"},
		"order_short_credit_upto":       {"кредит до %s", "credit up to %s"},
		"order_short_surrender_below":   {"облава: добыча до %s", "raids: loot below %s"},
		"order_short_offer_accept":      {"согласие на предложения от %s", "accepting offers from %s"},
		"order_short_offer_decline":     {"отказ на предложения ниже %s", "declining offers below %s"},
		"order_short_bid_upto":          {"ставки на торгах до %s", "bids up to %s"},
		"order_short_build":             {"стройка", "building"},
		"order_short_claim":             {"требование ренты", "claiming rent"},
		"order_short_take_gift":         {"подарок акций", "gift shares"},
		"order_short_roulette":          {"рулетка", "the roulette"},
		"order_short_customs":           {"таможня", "customs"},
		"order_short_offer_accept_pct":  {"согласие на предложения от %d%% цены", "accepting offers from %d%% of the price"},
		"order_short_offer_decline_pct": {"отказ на предложения ниже %d%% цены", "declining offers below %d%% of the price"},
		"order_roll":                    {"Бросать кубик сразу, как наступит мой ход", "Roll at once when my turn comes"},
		"order_end_turn":                {"Заканчивать ход, когда остальное решено приказами", "End my turn when the orders have answered the rest"},
		"order_buy_below":               {"Покупать клетку, на которой стою, если цена не выше", "Buy the cell I stop on if its price is at most"},
		"order_keep_cash":               {"…и при этом оставлять наличными не меньше", "…while keeping at least this in cash"},
		"order_spend_pct":               {"Приказы тратят за раз не больше этой доли наличных, %", "Orders spend at most this share of cash at once, %"},
		"order_skip_extras":             {"Отказываться от прочих предложений клетки, на которой стою (если другой приказ их не касается)", "Decline the other offers of the cell I stop on (those no other order covers)"},
		"order_fork_main":               {"На развилке идти главной дорогой", "Take the main road at a fork"},
		"order_sell_goods":              {"На рынке продавать все товары и наркотики", "Sell every good and narcotic at a market"},
		"order_spec_pct":                {"На бирже спекуляций продавать акции, если дают не меньше, % стоимости", "At a speculation cell, sell shares when it pays at least this % of their value"},
		"order_bank":                    {"В банке: гасить кредит целиком, если это в пределах трат и запаса; снимать вклад до запаса", "At the bank: repay the credit in full when within the spending limit and the cash kept; withdraw up to the cash kept"},
		"order_credit_upto":             {"…и брать кредит до этой суммы, если наличных меньше запаса (0 — никогда)", "…and borrow up to this in all when cash is below what is kept (0: never)"},
		"order_surrender_below":         {"При облаве отдавать добычу, если она меньше этой суммы и в пределах трат, иначе в тюрьму", "In a raid, give up the loot if below this and within the spending limit, else prison"},
		"order_offer_accept":            {"Принимать предложение купить мою акцию, если цена не ниже", "Accept an offer for my share at a price of at least"},
		"order_offer_decline":           {"Отклонять предложение купить мою акцию, если цена ниже", "Decline an offer for my share at a price below"},
		"order_bid_upto":                {"На торгах ставить до этой суммы, иначе пас", "In an auction, bid up to this, else pass"},
		"order_build":                   {"Строить перед броском, где можно, в пределах трат и запаса", "Build before rolling where I may, within the spending limit and the cash kept"},
		"order_claim":                   {"Требовать положенную мне ренту", "Claim the rent I am owed"},
		"order_take_gift":               {"Подарок акций: брать цвет, которого у меня больше всего", "Gift shares: take the colour I hold most of"},
		"order_customs":                 {"На таможне продавать акции, которые выбирает правило по умолчанию", "At customs, sell the shares the default picks"},
		"order_roulette":                {"В рулетке крутить до первого выхода и выходить, пока худший проигрыш за раз в пределах трат", "In the roulette, spin to the first exit, then leave, while the worst a spin can lose is within the spending limit"},
		"order_offer_accept_pct":        {"Принимать предложение купить моё предприятие за не меньше, % цены", "Accept an offer for my lot of at least this % of its price"},
		"order_offer_decline_pct":       {"Отклонять предложение купить моё предприятие дешевле, % цены", "Decline an offer for my lot below this % of its price"},
		"board_alt":                     {"Поле игры: клетки, владения и фишки игроков", "The board: cells, holdings and the players' tokens"},
		"my_games":                      {"Мои игры и настройки писем", "My games and mail settings"},
		"unsubscribe":                   {"Отписаться от всех писем, кроме своих ходов", "Unsubscribe from everything but your own moves"},
		"mail_footer":                   {"Игры по почте: письмо приходит, когда нужен ваш ход.", "Play by mail: you get a mail when your move is needed."},
		"mail_invite":                   {"Вас приглашают сыграть по почте. Ходы делаются на странице игры; письмо приходит, когда наступает ваша очередь.", "You are invited to a play-by-mail game. Moves are made on the game's page; you get a mail whenever it is your turn."},
		"deadline":                      {"Ответить до", "Answer by"},
		"default_then":                  {"Иначе будет выбрано", "Otherwise the default is played"},
		"breakdown":                     {"Из чего", "Made of"},
		"open_game":                     {"Открыть игру", "Open the game"},
		"accept_invite":                 {"Принять приглашение", "Accept the invitation"},
		"see_results":                   {"Итоги и запись партии", "Results and the game's record"},
		"saved":                         {"Сохранено.", "Saved."},
		"mail_pref":                     {"Какие письма присылать", "Which mails to send"},
		"mail_all":                      {"Все письма", "Every mail"},
		"mail_turns":                    {"Только мои ходы и решения", "Only my moves and decisions"},
		"mail_digest":                   {"Мои ходы сразу, остальное раз в день", "My moves at once, the rest once a day"},
		"unsub_all":                     {"Отписаться от всего, кроме своих ходов", "Unsubscribe from everything but my own moves"},
		"save":                          {"Сохранить", "Save"},
		"no_games":                      {"Игр пока нет.", "No games yet."},
		"unsub_confirm":                 {"Больше не присылать писем, кроме писем о ваших ходах и решениях? Их нельзя отключить, не выйдя из игры.", "Stop every mail except those about your own moves and decisions? Those cannot be silenced without leaving the game."},
		"unsub_done":                    {"Готово: теперь приходят только письма о ваших ходах и решениях.", "Done: you now get only the mails about your own moves and decisions."},
		"your_move_now":                 {"ваш ход", "your move"},
		"board_whole":                   {"Вся доска", "The whole board"},
		"confirm_amount":                {"Подтвердите сумму", "Confirm the amount"},
		"confirm_amount_text":           {"Это больше половины того, что можно (до %s). Проверьте сумму: кнопка ниже сделает это.", "That is more than half the most allowed (up to %s). Check the amount: the button below does it."},
		"confirm_amount_back":           {"Нет, вернуться к решениям", "No, back to the decisions"},
		"owe_turn":                      {"Ваш ход: %s", "Your move: %s"},
		"owe_decision":                  {"Ваше решение: %s", "Your decision: %s"},
		"my_waiting_for":                {"Ждём: %s", "Waiting for: %s"},
		"not_found_title":               {"Страница не найдена", "Page not found"},
		"not_found":                     {"Такой страницы здесь нет. Игры открываются по ссылкам из писем.", "There is no such page here. Games open from the links in their mails."},
		"bad_link_help":                 {"Откройте игру по ссылке из последнего письма о ней или со страницы «Мои игры»: ссылка на неё есть внизу каждого письма.", "Open the game from the link in its latest mail, or from your \"My games\" page: every mail has a link to it at the bottom."},
		"breakdown_nw":                  {"Из чего складывается капитал", "What the net worth is made of"},
		"time_zone":                     {"Часовой пояс для сроков в письмах", "Time zone for the deadlines in mails"},
		"time_zone_help":                {"Название пояса, например Europe/Moscow; если поле пустое, браузер подставит ваш. Без пояса письма пишут время по UTC.", "A zone's name such as Europe/London; when empty, your browser fills in yours. Without one, mails give times in UTC."},
		// Pages of a game.
		"skip":              {"К содержанию", "Skip to content"},
		"lap_of":            {"пройдено кругов: %d из %d", "laps done: %d of %d"},
		"deadline_hours":    {"на решение: %s", "%s for each decision"},
		"read_only":         {"только просмотр", "read only"},
		"not_started":       {"Игра ещё не началась: ждём, пока игроки примут приглашения.", "The game has not started: the players have yet to accept."},
		"your_decision":     {"Нужно ваше решение", "A decision is asked of you"},
		"waiting_for":       {"Ждём хода", "Waiting for"},
		"board":             {"Доска", "Board"},
		"rules":             {"Правила", "Rules"},
		"rules_of":          {"Правила игры «%s»", "The rules of «%s»"},
		"rules_link":        {"Правила игры", "The rules"},
		"squares":           {"Клетки по номерам", "The squares by number"},
		"earlier_in_log":    {"Раньше — в записи партии", "Earlier events are in the game's log"},
		"other_players":     {"Другие игроки", "Other players"},
		"log_link":          {"Запись партии и повтор ходов", "The game's log and replay"},
		"you":               {"вы", "you"},
		"to_move":           {"ходит", "to move"},
		"deciding":          {"решает", "deciding"},
		"colony_loan":       {"Заём колонии", "Colony loan"},
		"start_loan":        {"Стартовая ссуда", "Starting loan"},
		"shares":            {"Акции", "Shares"},
		"labour":            {"Биржа труда", "Labour exchange"},
		"narco":             {"Наркотик", "Narcotics"},
		"protected":         {"под защитой полиции", "protected from the police"},
		"due_in":            {"осталось %s", "%s left"},
		"due_now":           {"срок вышел", "the time is up"},
		"lengths_caption":   {"Сколько длится игра (срок хода — %s): оценка симулятора", "How long a game takes (%s for a move): the simulator's estimate"},
		"lengths_laps":      {"Кругов", "Laps"},
		"lengths_seats":     {"игроков: %d", "players: %d"},
		"length_cell":       {"≈%d дн. (до %d), ходов: %d", "≈%d d (≤%d), turns: %d"},
		"lengths_note":      {"В каждой клетке: обычно D дней (медиана партий, сыгранных симулятором: половина длится дольше), в скобках — сколько дней не превышают 9 партий из 10, и около N ходов у каждого игрока. Число кругов задаётся выше.", "Each cell: typically D days (the median of the games the simulator played: half take longer), in brackets the days 9 games in 10 stay within, and about N turns each. Set the laps above."},
		"lengths_assume":    {"Допущения симулятора: каждый отвечает на письмо о ходе обычно через %s ч (9 из 10 — за %s ч), только с %d:00 до %d:00 по своему времени, пропускает %g %% писем (тогда ход делается по сроку), и никто не меняет настроек: приказы остаются предложенными.", "The simulator assumes: everyone answers a move mail typically %s h after it comes (9 in 10 within %s h), only from %d:00 to %d:00 their time, misses %g %% of them (the deadline then plays the move), and nobody changes a setting: standing orders stay as suggested."},
		"length_estimate":   {"%s; обычно %s, в 9 партиях из 10 — не дольше %d", "%s; typically %s, at most %d in 9 games of 10"},
		"n_days":            {"%d д", "%d d"},
		"n_hours":           {"%d ч", "%d h"},
		"n_mins":            {"%d мин", "%d min"},
		"grp_bank":          {"Банк", "Bank"},
		"grp_other":         {"Другое", "Other"},
		"grp_leave":         {"Покинуть игру", "Leave the game"},
		"resign":            {"Покинуть игру", "Leave the game"},
		"resign_note":       {"Навсегда: ваши деньги уходят банку, владения — обратно банку.", "For good: your money and your holdings go back to the bank."},
		"note_price":        {"цена %s", "price %s"},
		"note_mult":         {"по цене ×%s", "at ×%s its value"},
		"note_owner":        {"владелец: %s", "owner: %s"},
		"chart_title":       {"Капитал по ходу игры", "Net worth over the game"},
		"seed_commit":       {"Кости и карты этой игры заданы заранее; SHA-256 их зерна:", "This game's dice and cards are fixed in advance; the SHA-256 of their seed:"},
		"import_title":      {"Посмотреть запись партии", "View a game record"},
		"import_hint":       {"Файл записи окончённой игры (JSON) с любого сервера: он будет переигран с зерна, каждый бросок и каждая карта проверены; запись, которая не воспроизводится, будет отклонена с номером первого расходящегося шага.", "A finished game's record file (JSON) from any server: it is replayed from its seed, every roll and card checked; a record that does not replay is refused with its first divergent step."},
		"import_file":       {"Файл записи", "Record file"},
		"import_btn":        {"Проверить и открыть", "Check and open"},
		"record_link":       {"Скачать запись партии (JSON: её можно проверить и воспроизвести)", "Download the game record (JSON: check it and replay it)"},
		"seed_hash_was":     {"SHA-256 зерна, показанный с начала игры:", "The seed's SHA-256, shown from the start:"},
		"seed_revealed":     {"Игра окончена, вот само зерно — проверьте им каждый бросок и каждую карту:", "The game is over; here is the seed itself — check every roll and card with it:"},
		"chart_x":           {"Номер действия", "Action number"},
		"chart_y":           {"Капитал, $", "Net worth, $"},
		"chart_desc_seat":   {"%s: наибольший %s, в конце %s", "%s: highest %s, at the end %s"},
		"log_title":         {"запись партии", "the game's log"},
		"back_to_game":      {"← К игре", "← Back to the game"},
		"replay_after":      {"Повтор: после действия %d из %d", "Replay: after action %d of %d"},
		"replay_start":      {"Повтор: начало игры", "Replay: the start of the game"},
		"replay_nav":        {"Шаги повтора", "Replay steps"},
		"to_start":          {"К началу", "To the start"},
		"to_end":            {"К концу", "To the end"},
		"back_10":           {"На 10 действий назад", "10 actions back"},
		"fwd_10":            {"На 10 действий вперёд", "10 actions forward"},
		"prev":              {"Назад", "Back"},
		"next":              {"Вперёд", "Next"},
		"go_to_step":        {"Перейти к действию", "Go to action"},
		"go":                {"Показать", "Show"},
		"log_list":          {"Список действий", "The list of actions"},
		"log_range":         {"Действия %d–%d из %d", "Actions %d–%d of %d"},
		"replay_from_start": {"Повтор с начала ›", "Replay from the start ›"},
		"replay_to":         {"Повтор: положение после действия %d", "Replay: the position after action %d"},
		"log_pages":         {"Страницы записи", "Pages of the log"},
		"log_pages_end":     {"Страницы записи (внизу)", "Pages of the log (bottom)"},
		"first_page":        {"Начало", "First"},
		"earlier":           {"Раньше", "Earlier"},
		"later":             {"Позже", "Later"},
		"last_page":         {"Последние", "Latest"},
		"accepted_of":       {"приглашение приняли: %d из %d", "%d of %d accepted"},
		"not_joined":        {"не в игре", "did not join"},
		"invite_unsent":     {"приглашение ещё не отправлено", "invitation not sent yet"},
		"bot_plays":         {"играет бот", "a bot plays"},
		"out":               {"вне игры", "out"},
		"unreachable":       {"почта не доходит", "cannot be reached by mail"},
		"unreachable_help":  {"Письма на этот адрес возвращаются. Передайте игроку ссылку сами или исправьте адрес в новой игре.", "Mail to this address bounces. Hand the player their link yourself, or fix the address in a new game."},
		"mail_unsent":       {"письмо не отправлено", "a mail was not sent"},
		"mail_unsent_help":  {"Письмо этому игроку не удалось составить, и оно отложено. Передайте игроку ссылку сами; мы уже разбираемся.", "A mail to this player could not be composed and was set aside. Hand the player their link yourself; we are looking into it."},
		"mail_unsent_org":   {"Письмо вам не удалось составить, и оно отложено; мы уже разбираемся.", "A mail to you could not be composed and was set aside; we are looking into it."},
		"invite_link_for":   {"Личная ссылка-приглашение — %s:", "Invitation link for %s (personal):"},
		"copy":              {"Копировать", "Copy"},
		"copied":            {"Скопировано", "Copied"},
		"open_invite":       {"открыть", "open"},
		"start_title":       {"Начать игру", "Start the game"},
		"start_help":        {"Игра начнётся сама, когда все примут приглашения. Можно начать и раньше — с принявшими приглашение.", "The game starts by itself when everyone has accepted. You can start earlier with those who have."},
		"start_n":           {"Начать с принявшими (%d)", "Start with those who accepted (%d)"},
		"spectator_help":    {"По этой ссылке игру можно смотреть, но не играть. Её можно переслать кому угодно.", "This link shows the game without letting anyone play. Share it with anyone."},
		"open_spectator":    {"открыть как зритель", "open as a spectator"},
		"options":           {"Условия", "Options"},
		"move_deadline":     {"Срок на ход", "Time for a move"},
		"you_accepted":      {"Вы приняли приглашение. Письмо придёт, когда будет ваш ход.", "You have accepted. You will get a mail when it is your move."},
		"accept_help":       {"Письма будут приходить на адрес, на который пришло приглашение. Отписаться можно в любой момент.", "Mails go to the address this invitation came to. You can unsubscribe at any time."},
		"started_without":   {"Игра уже началась без вас или закончилась.", "The game has started without you, or is over."},
		"create_intro":      {"Игроки получат приглашения по почте. Ходы делаются по ссылкам из писем — без паролей и регистрации.", "The players get invitations by mail. Moves are made from the links in the mails: no passwords, no sign-up."},
		"which_game":        {"Во что играем", "Which game"},
		"options_of":        {"Условия игры «%s»", "Options of «%s»"},
		"opt_laps":          {"Число кругов", "Laps to play"},
		"opt_beginners":     {"Вариант для начинающих (курсы не меняются)", "Beginners' variant (rates stay put)"},
		"misses_title":      {"Если игрок не отвечает в срок", "When a player misses the deadline"},
		"misses_label":      {"Сколько пропусков подряд терпим", "Deadlines missed in a row before acting"},
		"on_miss_bot":       {"потом за игрока ходит бот", "then a bot plays the seat"},
		"on_miss_drop":      {"потом игрок выбывает", "then the player leaves the game"},
		"player_name":       {"Имя игрока %d", "Player %d: name"},
		"player_email":      {"Почта игрока %d", "Player %d: email"},
		"player_lang":       {"Язык игрока %d", "Player %d: language"},
		"games":             {"Игры", "Games"},
		"lang_pref":         {"Письма приходят на языке этой страницы: переключите RU/EN вверху, затем сохраните.", "Mails come in this page's language: switch RU/EN at the top, then save."},
		"all_decisions":     {"Все решения и положение в игре", "All decisions and where things stand"},
		"hello":             {"Здравствуйте, %s!", "Hello %s,"},
		"mail_section":      {"Письма", "Mail"},
		"opt_rent_claim":    {"Аренда", "Rent"},
		"lots":              {"Участки", "Lots"},
		"buildings":         {"Постройки", "Buildings"},
		"pledged":           {"Заложенные участки", "Pledged lots"},
		"exchange_board":    {"Биржа", "Exchange"},
		"do_choose":         {"Выбрать", "Choose"},
		"ends_turn":         {"ход на этом закончится", "this ends your turn"},

		// The organiser's confirmation of their address (issue 9).
		"status_unconfirmed": {"ждём подтверждения адреса организатора", "waiting for the organiser to confirm their address"},
		"check_mail_title":   {"Проверьте почту", "Check your mail"},
		"check_mail_text":    {"Мы отправили письмо на %s. Откройте ссылку из него и подтвердите, что адрес ваш: только после этого игрокам уйдут приглашения. Эта страница — ваша ссылка организатора: сохраните её (письмо тоже приведёт сюда).", "We have sent a mail to %s. Open its link and confirm that the address is yours: only then do the invitations go to the players. This page is your organiser's link: keep it (the mail leads back here too)."},
		"confirm_title":      {"Подтверждение адреса", "Confirm your address"},
		"confirm_text":       {"Подтвердите, что адрес %s ваш и что вы устраиваете игру «%s» (игроков: %d). После этого игрокам уйдут приглашения, а следующие ваши игры не потребуют подтверждения.", "Confirm that %s is your address and that you are organising a game of %s (players: %d). The invitations then go to the players, and your next games need no confirmation."},
		"confirm_not_me":     {"Если это были не вы, просто закройте страницу: никому ничего не будет отправлено.", "If it was not you, just close this page: nothing will be sent to anyone."},
		"confirm_done":       {"Адрес подтверждён, приглашения отправлены.", "Address confirmed; the invitations have been sent."},
		"confirm_cancelled":  {"Эта игра отменена: подтверждать нечего, никому ничего не отправлено.", "The organiser cancelled this game: there is nothing to confirm, and nothing was sent to anyone."},
		"confirm_btn":        {"Подтвердить адрес и разослать приглашения", "Confirm the address and send the invitations"},
		"mail_confirm":       {"Кто-то — возможно, вы — хочет устроить игру по почте «%s» (игроков: %d), указав этот адрес как адрес организатора. Прежде чем кому-то уйдут приглашения, подтвердите, что адрес ваш.", "Someone — perhaps you — wants to organise a play-by-mail game of %s (players: %d) and gave this address as the organiser's. Before any invitation leaves, please confirm that the address is yours."},
		// The organiser's controls, absences and back from the bot (issue 17).
		"controls":            {"Управление игрой", "Game controls"},
		"paused":              {"на паузе", "paused"},
		"paused_note":         {"Игра на паузе по решению организатора: сроки ходов стоят, ходы не принимаются, пока игра не продолжится.", "The organiser has paused the game: the deadlines stand still and no move is taken until it resumes."},
		"status_cancelled":    {"отменена", "cancelled"},
		"ctl_pause":           {"Приостановить игру", "Pause the game"},
		"ctl_resume":          {"Продолжить игру", "Resume the game"},
		"ctl_extend":          {"Продлить текущий срок хода, часов", "Extend the current deadline, hours"},
		"ctl_extend_btn":      {"Продлить", "Extend"},
		"ctl_done":            {"Готово.", "Done."},
		"ctl_bot":             {"Передать место боту", "Hand the seat to a bot"},
		"ctl_unbot":           {"Вернуть место игроку", "Give the seat back to the player"},
		"ctl_remove":          {"Исключить из игры", "Remove from the game"},
		"ctl_replace":         {"Заменить другим игроком", "Replace by another player"},
		"ctl_replace_btn":     {"Пригласить замену", "Invite the substitute"},
		"ctl_end":             {"Закончить игру сейчас (места — по капиталу)", "End the game now (places by net worth)"},
		"ctl_cancel":          {"Отменить игру", "Cancel the game"},
		"ctl_none":            {"Игра окончена или отменена: управлять больше нечем.", "The game is over or cancelled: there is nothing left to control."},
		"ctl_sure":            {"Да, это нельзя отменить", "Yes: this cannot be undone"},
		"ctl_log":             {"Решения организатора", "The organiser's decisions"},
		"replaced":            {"место передано замене", "seat given to a substitute"},
		"leaving":             {"выходит из игры", "leaving"},
		"take_seat_back":      {"Вернуть своё место у бота", "Take your seat back from the bot"},
		"back_title":          {"Ваше место у бота", "A bot holds your seat"},
		"back_text":           {"После пропущенных сроков за ваше место играет бот. Одно нажатие — и вы снова играете сами.", "After missed deadlines a bot plays your seat. One click and you play it yourself again."},
		"back_not_bot":        {"Бот не играет за ваше место: вы играете сами.", "No bot plays your seat: you play it yourself."},
		"back_btn":            {"Я снова на месте", "I'm back"},
		"you_are":             {"Вы", "You are"},
		"away_title":          {"Уезжаю", "I'll be away"},
		"away_help":           {"Пока вас нет, за вас играют ваши приказы, затем бот; сроки не считаются пропущенными, остальные видят, до какого числа вас нет.", "While you are away your standing orders, then your bot, play for you; no deadline counts as missed, and the others see until when you are away."},
		"away_from":           {"С", "From"},
		"away_until":          {"По (включительно)", "Until (inclusive)"},
		"away_open":           {"Без даты возвращения — пока не нажмёте «Я снова на месте».", "With no day of return: until you press “I'm back”."},
		"away_btn":            {"Сообщить об отъезде", "Tell the table"},
		"mail_confirm_not_me": {"Если это были не вы, ничего не делайте: никому ничего не будет отправлено, а ссылка перестанет действовать через 7 дней.", "If it was not you, do nothing: nothing will be sent to anyone, and the link stops working in 7 days."},

		// Sign in by mail, and the player's links (issue 17).
		"signin_title":       {"Вход по почте", "Sign in by mail"},
		"signin_text":        {"Введите адрес, на который приходят письма об играх: мы пришлём на него ссылку на ваши игры. Ни пароля, ни учётной записи не нужно.", "Type the address your game mails come to: we will mail it a link to your games. No password, no account."},
		"signin_email":       {"Адрес почты", "Email address"},
		"signin_send":        {"Прислать ссылку", "Mail me a link"},
		"signin_sent":        {"Если на этот адрес приходят письма об играх, ссылка для входа уже отправлена. Она действует 30 минут и один раз. Письма нет — проверьте папку «Спам» или адрес.", "If game mails come to this address, a sign-in link is on its way. It works once, within 30 minutes. No mail? Check your spam folder, or the address."},
		"signin_ask":         {"Получить новую ссылку на свои игры", "Get a new link to your games"},
		"signin_open":        {"Открыть мои игры", "Open my games"},
		"signin_open_text":   {"Эта ссылка откроет ваши игры один раз. Нажмите кнопку, чтобы войти: после этого ссылка из письма перестанет действовать, а эта страница станет вашей на 30 дней.", "This link opens your games once. Press the button to sign in: the link in the mail then stops working, and the page it opens is yours for 30 days."},
		"mail_signin":        {"Кто-то — вероятно, вы — попросил ссылку для входа в ваши игры по почте. Ссылка действует 30 минут и только один раз.", "Someone — probably you — asked for a link to sign in to your play-by-mail games. The link works once, within 30 minutes."},
		"mail_signin_not_me": {"Если это были не вы, ничего не делайте: без этой ссылки никто не войдёт.", "If it was not you, do nothing: no one gets in without this link."},
		"links_title":        {"Ссылки и входы", "Links and sign-ins"},
		"links_text":         {"Ссылки, которые вам присылали: любую можно отозвать, и она перестанет действовать.", "The links you have been sent: revoke any, and it stops working."},
		"links_mail":         {"Ссылки в письмах («Мои игры»)", "Links in mails (\"My games\")"},
		"links_mail_note":    {"Отзыв остановит ссылки во всех уже отправленных письмах, в том числе старые, с адресом; в новых письмах будут новые ссылки. Ссылки «отписаться» работают всегда.", "Revoking stops the links in every mail sent so far, older ones with your address included; new mails bring new links. Unsubscribe links always work."},
		"link_signin":        {"Ссылка для входа", "Sign-in link"},
		"link_session":       {"Вход", "Sign-in"},
		"link_issued":        {"выдана", "issued"},
		"link_used":          {"использована", "last used"},
		"link_unused":        {"не использована", "not used"},
		"link_expires":       {"действует до", "works until"},
		"link_revoked":       {"отозвана", "revoked"},
		"link_current":       {"эта страница", "this page"},
		"link_revoke":        {"Отозвать", "Revoke"},
		"links_none":         {"Ссылок для входа пока не было.", "No sign-in links yet."},
		"links_open":         {"Ссылки и входы", "Links and sign-ins"},
		"signout_all":        {"Выйти отовсюду", "Sign out everywhere"},
		"signout_all_note":   {"Перестанут действовать все ссылки на «Мои игры», что у вас есть, — и эта тоже; новую можно получить на странице входа. Ссылки на сами игры из писем работают как прежде.", "Every link to \"My games\" you have stops working, this one too; get a new one on the sign-in page. The links to the games themselves in your mails keep working."},
		"signout_done":       {"Вы вышли отовсюду: прежние ссылки на «Мои игры» больше не действуют.", "You are signed out everywhere: your earlier links to \"My games\" no longer work."},
		"revoke_done":        {"Ссылка отозвана.", "Link revoked."},
		// Table talk (issue 17), on the pages and in the mails that fold it in.
		"talk":             {"Разговор за столом", "Table talk"},
		"talk_since_mail":  {"Разговор за столом с вашего прошлого письма", "Table talk since your last mail"},
		"talk_hidden":      {"скрыто организатором", "hidden by the organiser"},
		"talk_hidden_mine": {"ваше сообщение скрыто организатором; другие видят только эту пометку", "your message, hidden by the organiser; the others see only this note"},
		"talk_more":        {"Сообщений было больше: остальные — на странице разговора.", "There were more messages: the rest are on the talk page."},
		"talk_open":        {"Открыть разговор за столом", "Open the table talk"},
		"talk_private":     {"лично", "private"},
		"talk_to_you":      {"лично вам", "to you alone"},
		"talk_none":        {"Пока никто ничего не написал.", "Nobody has written anything yet."},
		"talk_write":       {"Ваше сообщение", "Your message"},
		"talk_to":          {"Кому", "To"},
		"talk_to_all":      {"всем за столом", "the whole table"},
		"talk_send":        {"Отправить", "Send"},
		"talk_hint":        {"Простой текст, до %d знаков, не больше %d сообщений в час. Сообщения приходят остальным в их следующем письме; личное видят только двое.", "Plain text, up to %d characters, at most %d messages an hour. The others get messages in their next mail; a private one is seen by the two of you only."},
		"talk_hide":        {"Скрыть", "Hide"},
		"talk_show":        {"Показать снова", "Show again"},
		"talk_older":       {"Более ранние сообщения", "Earlier messages"},
		"talk_newest":      {"К последним сообщениям", "To the newest messages"},
		"talk_sent":        {"Сообщение отправлено.", "Message sent."},
		"talk_all":         {"Весь разговор", "All the talk"},
		"talk_write_link":  {"Написать за столом и читать весь разговор", "Write to the table, read all the talk"},
		"talk_read_only":   {"Зрители читают общий разговор, но не пишут.", "Spectators read the public talk but do not write."},
		"talk_org_note":    {"Вы видите общий разговор, но не личные сообщения игроков. Скрытое сообщение остаётся на месте с пометкой.", "You see the public talk, not the players' private messages. A hidden message stays in its place, marked as hidden."},
		"talk_back":        {"← К игре", "← Back to the game"},
	}
}

// lookup finds key's shared texts.
func lookup(key string) ([2]string, bool) {
	p, ok := texts()[key]
	return p, ok
}

// shared tells whether key is one of the shared texts, counted ones
// included.
func shared(key string) bool {
	_, ok := texts()[key]
	_, count := counted[key]
	return ok || count
}

// Has tells whether key has its shared texts.
func Has(key string) bool { return shared(key) }

// T translates a shared key; an unknown key is shown as it is, so a
// missing text is visible rather than blank. A game's own phrases are
// its GameTexts'.
func T(lang, key string) string {
	p, ok := lookup(key)
	if !ok {
		return key
	}
	return Pick(lang, p[0], p[1])
}

// Keys lists every shared key that has its texts, counted ones included.
func Keys() []string {
	keys := make([]string, 0, len(texts())+len(counted))
	for k := range texts() {
		keys = append(keys, k)
	}
	for k := range counted {
		keys = append(keys, k)
	}
	return keys
}

// Pick is the one way to choose a text by language: en for lang "en",
// ru for any other. Every phrase, keyed (T) or inline, goes through it.
func Pick(lang, ru, en string) string {
	if lang == "en" {
		return en
	}
	return ru
}

// Pickf is Pick of a format, filled in with its numbers written the
// reader's way (Sprintf).
func Pickf(lang, ru, en string, args ...any) string {
	return Sprintf(lang, Pick(lang, ru, en), args...)
}

// GameTexts are one game's own phrases by key, read on their first
// look-up, not at start: decoding them is 0.07 ms of a cold start per game
// (issue 16), and most look-ups find their key in the shared texts. A
// game's presenter owns its GameTexts; no package-level list of them is
// kept.
type GameTexts struct {
	// texts points at the loader, so that a presenter holding its
	// GameTexts stays comparable.
	texts *gameTexts
}

type gameTexts struct{ load func() map[string][2]string }

// load reads the game's phrases; none for the zero GameTexts.
func (g GameTexts) load() map[string][2]string {
	if g.texts == nil {
		return nil
	}
	return g.texts.load()
}

// NewGameTexts are a game's phrases, made by load on their first look-up
// (load panics if they do not read: a programming error). A key the
// shared texts have too is a programming error, which that look-up
// reports.
func NewGameTexts(load func() map[string][2]string) GameTexts {
	return GameTexts{&gameTexts{load: sync.OnceValue(func() map[string][2]string {
		add := load()
		for k := range add {
			if shared(k) {
				panic(fmt.Sprintf("templates: text %q added twice", k))
			}
		}
		return add
	})}}
}

// T translates key, the game's own phrases first, then the shared ones;
// an unknown key is shown as it is.
func (g GameTexts) T(lang, key string) string {
	if p, ok := g.load()[key]; ok {
		return Pick(lang, p[0], p[1])
	}
	return T(lang, key)
}

// Has tells whether key has its texts, the game's or the shared ones.
func (g GameTexts) Has(key string) bool {
	if _, ok := g.load()[key]; ok {
		return true
	}
	return Has(key)
}

// Keys lists the game's own keys (not the shared ones). It reads them, and
// panics on a key the shared texts have too.
func (g GameTexts) Keys() []string {
	keys := make([]string, 0, len(g.load()))
	for k := range g.load() {
		keys = append(keys, k)
	}
	return keys
}

// AddTexts adds shared phrases, by key (the leagues' own), at start,
// made by add on the first look-up of any shared phrase (texts); a key
// already taken is a programming error, which that look-up reports.
func AddTexts(add func() map[string][2]string) {
	addedTexts = append(addedTexts, add)
}

// Tf is Tf of the game's phrase of key, or the shared one.
func (g GameTexts) Tf(lang, key string, args ...any) string {
	if _, ok := counted[key]; ok {
		return Sprintf(lang, key, args...)
	}
	return Sprintf(lang, g.T(lang, key), args...)
}
