package templates

import (
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Every number a player reads is written by one printer per language
// (golang.org/x/text/message, CLDR's rules): Russian groups thousands
// with a no-break space and writes decimals with a comma ("20 000",
// "×1,5"), English with a comma and a point ("20,000", "×1.5"). The
// minus is the typographic one (U+2212) in both.

// counted are the texts that hold a count and change with it: the
// Russian one, few and many forms and the English one and other forms.
// Arg is the position (from 1) of the count among the arguments.
type countedText struct {
	arg int
	ru  [3]string
	en  [2]string
}

var counted = map[string]countedText{
	"n_moves":           {1, [3]string{"%d действие", "%d действия", "%d действий"}, [2]string{"%d action", "%d actions"}},
	"n_laps":            {1, [3]string{"%d круг", "%d круга", "%d кругов"}, [2]string{"%d lap", "%d laps"}},
	"skipping":          {1, [3]string{"пропускает %d ход", "пропускает %d хода", "пропускает %d ходов"}, [2]string{"misses %d turn", "misses %d turns"}},
	"note_turns":        {1, [3]string{"%d ход", "%d хода", "%d ходов"}, [2]string{"%d turn", "%d turns"}},
	"chart_desc":        {2, [3]string{"%[1]s каждого игрока за %[2]d действие.", "%[1]s каждого игрока за %[2]d действия.", "%[1]s каждого игрока за %[2]d действий."}, [2]string{"%[1]s of each player over %[2]d action.", "%[1]s of each player over %[2]d actions."}},
	"n_players_exactly": {1, [3]string{"%d игрок", "%d игрока", "%d игроков"}, [2]string{"%d player", "%d players"}},
	"n_players":         {2, [3]string{"%d–%d игрок", "%d–%d игрока", "%d–%d игроков"}, [2]string{"%d–%d player", "%d–%d players"}},
	"n_units":           {1, [3]string{"%d ед.", "%d ед.", "%d ед."}, [2]string{"%d unit", "%d units"}},
	"n_tons":            {1, [3]string{"%d т", "%d т", "%d т"}, [2]string{"%d ton", "%d tons"}},
	"n_shares":          {1, [3]string{"%d акция", "%d акции", "%d акций"}, [2]string{"%d share", "%d shares"}},
	"n_xcards":          {1, [3]string{"%d карта биржи", "%d карты биржи", "%d карт биржи"}, [2]string{"%d exchange card", "%d exchange cards"}},
	"n_turns_left":      {1, [3]string{"ещё %d ход", "ещё %d хода", "ещё %d ходов"}, [2]string{"%d turn left", "%d turns left"}},
	"n_steps_left":      {1, [3]string{"ещё %d шаг", "ещё %d шага", "ещё %d шагов"}, [2]string{"%d step left", "%d steps left"}},
	"start_need":        {1, [3]string{"Чтобы начать, нужен хотя бы %d принявший приглашение.", "Чтобы начать, нужно хотя бы %d принявших приглашение.", "Чтобы начать, нужно хотя бы %d принявших приглашение."}, [2]string{"At least %d player must accept before you can start.", "At least %d players must accept before you can start."}},
	// «около» takes the genitive: около 1 дня, около 2 дней, около 21 дня.
	"n_days_about":  {1, [3]string{"около %d дня", "около %d дней", "около %d дней"}, [2]string{"about %d day", "about %d days"}},
	"n_turns_about": {1, [3]string{"около %d хода у каждого", "около %d ходов у каждого", "около %d ходов у каждого"}, [2]string{"about %d turn each", "about %d turns each"}},
	"n_lots":        {1, [3]string{"%d участок", "%d участка", "%d участков"}, [2]string{"%d lot", "%d lots"}},
}

// printers are made on the first number written, not at start, and
// hold no catalog: a counted text's form is chosen here (form), and the
// printer only writes the numbers. Compiling the counted texts into an
// x/text catalog of plural messages was 0.1 ms of the first page (and,
// before, 0.14 ms of every cold start, issue 16), and looking a format
// up in it cost every number written thereafter (issue 24).
var printers = sync.OnceValue(func() map[string]*message.Printer {
	return map[string]*message.Printer{
		"ru": message.NewPrinter(language.Russian),
		"en": message.NewPrinter(language.English),
	}
})

// printer is the reader's language's printer ("en" English, anything
// else Russian).
func printer(lang string) *message.Printer { return printers()[Pick(lang, "ru", "en")] }

// Sprintf formats in the reader's language: its numbers, and the counted
// form when format is the key of a counted text.
func Sprintf(lang, format string, args ...any) string {
	if c, ok := counted[format]; ok {
		format = c.form(Pick(lang, "ru", "en"), args)
	}
	return minus(printer(lang).Sprintf(format, args...))
}

// form is the text of c for the count among args, by CLDR's plural rules
// of whole numbers (as golang.org/x/text/feature/plural applies them):
// Russian "one" for 1, 21, 101 (not 11), "few" for 2–4, 22–24 (not
// 12–14), "many" for the rest; English "one" for 1 alone. A count that is
// not a whole number takes the "other" form (Russian's "few" text).
func (c countedText) form(lang string, args []any) string {
	n, whole := int64(0), false
	if c.arg >= 1 && c.arg <= len(args) {
		n, whole = wholeNumber(args[c.arg-1])
	}
	if n < 0 {
		n = -n
	}
	if lang == "en" {
		if whole && n == 1 {
			return c.en[0]
		}
		return c.en[1]
	}
	switch d, dd := n%10, n%100; {
	case !whole:
		return c.ru[1]
	case d == 1 && dd != 11:
		return c.ru[0]
	case d >= 2 && d <= 4 && (dd < 12 || dd > 14):
		return c.ru[1]
	default:
		return c.ru[2]
	}
}

// wholeNumber is v as a whole number, if it is one of Go's integer
// types.
func wholeNumber(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int8:
		return int64(n), true
	case int16:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case uint:
		return int64(n), true
	case uint8:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint32:
		return int64(n), true
	case uint64:
		return int64(n), true
	}
	return 0, false
}

// minus writes CLDR's hyphen-minus before a digit as a true minus.
func minus(s string) string {
	if !strings.Contains(s, "-") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if r == '-' && i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9' && (i == 0 || !isWordRune(rs[i-1])) {
			r = '−'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isWordRune(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 'а' && r <= 'я' || r >= 'А' && r <= 'Я'
}

// Num writes a whole number: "20 000", "20,000", "−2".
func Num(lang string, v int64) string { return Sprintf(lang, "%d", v) }

// Dec writes a number that may have a fraction: "1,5", "1.5".
func Dec(lang string, v float64) string { return Sprintf(lang, "%g", v) }

// Signed writes a number with its sign: "+2", "−2", "0".
func Signed(lang string, v int64) string {
	if v > 0 {
		return "+" + Num(lang, v)
	}
	return Num(lang, v)
}

// Count writes a counted text (a key of counted) for n and the
// arguments after it.
func Count(lang, key string, args ...any) string {
	if _, ok := counted[key]; !ok {
		return key
	}
	return Sprintf(lang, key, args...)
}
