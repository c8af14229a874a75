package service

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pbmgames/pbm/engine"
)

// checkKey refuses a missing or odd idempotency key.
func checkKey(key string) error {
	if len(key) < MinKeyLen || len(key) > MaxKeyLen {
		return invalid("Нужен ключ запроса (key) длиной от 8 до 64 символов.", "An idempotency key of 8 to 64 characters is required.")
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return invalid("Ключ запроса: только латинские буквы, цифры, - и _.", "The idempotency key may hold only letters, digits, - and _.")
		}
	}
	return nil
}

// cleanPerson validates a name, an email and a language.
func cleanPerson(p Person, organiser bool) (Person, error) {
	p.Name = strings.TrimSpace(p.Name)
	p.Email = strings.TrimSpace(p.Email)
	if p.Lang == "" {
		p.Lang = "ru"
	}
	// Each message names whose field is wrong: the organiser, or the
	// player by name (by address when the name is what is missing).
	ru, en := whoseField(p, organiser)
	if p.Lang != "ru" && p.Lang != "en" {
		return p, invalid(ru+": язык — ru или en.", en+": the language must be ru or en.")
	}
	if p.Name == "" && organiser {
		p.Name = "—"
	}
	if err := checkName(p.Name); err != nil {
		e := AsError(err)
		return p, invalid(ru+": "+lowerFirst(e.RU), en+": "+lowerFirst(e.EN))
	}
	email, err := CheckEmail(p.Email)
	if err != nil {
		e := AsError(err)
		return p, invalid(ru+": "+lowerFirst(e.RU), en+": "+lowerFirst(e.EN))
	}
	p.Email = email
	return p, nil
}

// whoseField names the person a form's row is about, in Russian and
// English, for an error message about one of its fields.
func whoseField(p Person, organiser bool) (ru, en string) {
	switch {
	case organiser:
		return "Организатор", "Organiser"
	case p.Name != "" && checkName(p.Name) == nil:
		return "Игрок «" + p.Name + "»", "Player «" + p.Name + "»"
	case p.Email != "":
		return "Игрок с адресом «" + sanitize(p.Email) + "»", "The player with address «" + sanitize(p.Email) + "»"
	}
	return "Игрок", "A player"
}

// lowerFirst lowers a message's first letter, to follow a colon.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// checkName refuses names that could break a page or a mail: control
// characters, markup, or an empty or overlong name.
func checkName(name string) error {
	if name == "" || utf8.RuneCountInString(name) > MaxNameLen || !utf8.ValidString(name) {
		return invalid(fmt.Sprintf("Имя: от 1 до %d символов.", MaxNameLen), fmt.Sprintf("A name must be 1 to %d characters.", MaxNameLen))
	}
	if !PlainText(name) {
		return invalid("Имя не должно содержать управляющих символов и разметки.", "A name may not hold control characters or markup.")
	}
	return nil
}

// PlainText tells whether s holds no markup and nothing invisible
// (control and format characters among them), which could break a page
// or a mail, or make a name look like another.
func PlainText(s string) bool {
	for _, r := range s {
		if r == '<' || r == '>' || r == '&' || r == '"' || r == '`' || invisible(r) {
			return false
		}
	}
	return true
}

// checkGameName allows an empty name (the game is then named by its kind
// and players) or one of up to MaxGameNameLen characters with no control
// characters or markup, as a player's name.
func checkGameName(name string) error {
	if name == "" {
		return nil
	}
	if utf8.RuneCountInString(name) > MaxGameNameLen || !utf8.ValidString(name) {
		return invalid(fmt.Sprintf("Название игры: до %d символов.", MaxGameNameLen), fmt.Sprintf("A game's name must be at most %d characters.", MaxGameNameLen))
	}
	if !PlainText(name) {
		return invalid("Название игры не должно содержать управляющих символов и разметки.", "A game's name may not hold control characters or markup.")
	}
	return nil
}

// sanitize makes user text safe to echo inside an error message.
func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '<' || r == '>' {
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > 60 {
		s = string([]rune(s)[:60]) + "…"
	}
	return s
}

// refusedOrders is the refusal of standing orders engine.CheckOrders
// refused (err): which order and its range, in each language's own
// words — the engine's message is English, and only the English text
// quotes it.
func refusedOrders(specs []engine.OrderSpec, o engine.Orders, err error) *Error {
	for name, v := range o {
		i := slices.IndexFunc(specs, func(s engine.OrderSpec) bool { return s.Name == name })
		if i < 0 {
			return newError(CodeInvalid, "Такого постоянного приказа в этой игре нет.", "Invalid standing order: "+sanitize(err.Error()), err)
		}
		lo, hi := specs[i].Min, specs[i].Max
		if specs[i].Kind == engine.OrderFlag {
			lo, hi = 0, 1
		}
		if v < lo || v > hi {
			return newError(CodeInvalid, fmt.Sprintf("Неверное значение постоянного приказа: %d, а можно от %d до %d.", v, lo, hi),
				"Invalid standing order: "+sanitize(err.Error()), err)
		}
	}
	return newError(CodeInvalid, "Неверный постоянный приказ.", "Invalid standing order: "+sanitize(err.Error()), err)
}
