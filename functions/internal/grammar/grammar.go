// Package grammar checks the two things a Russian sentence about a player
// gets wrong when a name is pasted into it: a past-tense verb or short
// participle agrees in gender («Вера принял»), and a name after a
// preposition or a noun wants an oblique case («для Анна», «игроку
// Вера»). The service never inflects names, so every text must keep a
// name in the nominative and avoid words that agree with it. The checks
// are word lists, not a parser: they catch what our texts could say.
package grammar

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pastTense matches a masculine (or plural) past-tense verb: «принял»,
// «сделал», «разорился», «выбыл», «приняли».
var pastTense = regexp.MustCompile(`(?i)(^|[^\p{L}])(\p{L}+(ал|ял|ел|ил|ыл|ул|ол|ёл|ался|ялся|елся|ился|ылся|ался))($|[^\p{L}])`)

// notVerbs are words the pattern takes for verbs but are nouns or
// adjectives, and the plural forms that agree with no gender.
var notVerbs = map[string]bool{
	"капитал": true, "стол": true, "угол": true, "пол": true, "зал": true, "материал": true, "сигнал": true,
	"канал": true, "финал": true, "персонал": true, "журнал": true, "идеал": true, "оригинал": true, "филиал": true, "промысел": true, "нефтепромысел": true,
}

// participles are the short forms that agree with a subject's gender.
var participles = map[string]bool{
	"вынужден": true, "должен": true, "обязан": true, "рад": true, "готов": true, "согласен": true,
	"приглашён": true, "приглашен": true, "исключён": true, "исключен": true, "уверен": true, "разорён": true,
}

// governors are words after which a name would need an oblique case.
var governors = map[string]bool{
	"у": true, "для": true, "с": true, "со": true, "от": true, "к": true, "ко": true, "о": true, "об": true,
	"при": true, "без": true, "до": true, "над": true, "под": true, "перед": true, "за": true, "на": true,
	"в": true, "во": true, "по": true, "из": true, "про": true, "через": true,
	"игрока": true, "игроку": true, "игроком": true, "игроке": true, "игроков": true, "игрокам": true,
	"владельца": true, "владельцу": true, "покупателю": true, "продавцу": true, "его": true, "её": true, "ее": true,
}

// Problems lists what in text would not agree with one of names (each
// a name as written, in the nominative). A text without a name has
// nothing to agree with: it is checked for past tense only when strict.
func Problems(text string, strict bool, names ...string) []string {
	var out []string
	has := strict
	for _, n := range names {
		if n == "" {
			continue
		}
		for rest, off := text, 0; ; {
			i := strings.Index(rest, n)
			if i < 0 {
				break
			}
			has = true
			if w := lastWord(text[:off+i]); governors[strings.ToLower(w)] {
				out = append(out, "«"+w+" "+n+"» wants an oblique case")
			}
			off += i + len(n)
			rest = text[off:]
		}
	}
	if !has {
		return out
	}
	for _, m := range pastTense.FindAllStringSubmatch(text, -1) {
		w := strings.ToLower(m[2])
		if !notVerbs[w] {
			out = append(out, "«"+m[2]+"» is a past tense that agrees in gender")
		}
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if participles[strings.ToLower(w)] {
			out = append(out, "«"+w+"» is a short participle that agrees in gender")
		}
	}
	return out
}

// lastWord is the word right before the end of s, if only spaces come
// between them ("" after a punctuation mark).
func lastWord(s string) string {
	s = strings.TrimRight(s, " \u00a0")
	i := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if i < 0 {
		return s
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return s[i+size:]
}
