package templates

// The phrases of table talk (issue 17), on the pages and in the mails
// that fold it in; kept apart from texts so that the talk is one block
// to read, and added to texts before any template runs.
var talkTexts = map[string][2]string{
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

func init() { AddTexts(talkTexts) }
