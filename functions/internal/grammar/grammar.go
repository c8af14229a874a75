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

// subordinators open a clause whose subject, in a text said to «вы», is
// still «вы»: its verb takes the second person («пока не вернётесь»).
var subordinators = regexp.MustCompile(`(?i)(^|[^\p{L}])(пока не|пока|если не|если|когда|как только|до тех пор, пока не)\s+(\p{L}+)`)

// thirdPerson matches a present or future verb in the third person
// singular («вернётся», «ответит», «сделает»); secondPerson the forms
// said to «вы», which the pattern would also take for it.
var (
	thirdPerson  = regexp.MustCompile(`(?i)^\p{L}+(ётся|ется|ится|ёт|ет|ит)$`)
	secondPerson = regexp.MustCompile(`(?i)(те|тесь)$`)
	youWord      = regexp.MustCompile(`(^|[^\p{L}])[Вв]ы($|[^\p{L}])`)
)

// Addressed lists what in text, said to its reader (reader: their name,
// "" when it does not matter), does not speak to them: their own name in
// the third person ("handed Alice's seat" in a mail to Alice), or in a
// Russian sentence said to «вы» a clause whose verb is in the third
// person («Вы в отъезде, пока не вернётся»). A word list again: it
// takes the clause's subject to be «вы» (our texts give such a clause
// no subject of its own; «если захочет банк» would be flagged).
func Addressed(text, reader string) []string {
	var out []string
	if reader != "" && strings.Contains(text, reader) {
		out = append(out, "names its reader «"+reader+"» in the third person")
	}
	for _, sentence := range strings.FieldsFunc(text, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' }) {
		if !youWord.MatchString(sentence) {
			continue
		}
		for _, m := range subordinators.FindAllStringSubmatch(sentence, -1) {
			if v := m[3]; thirdPerson.MatchString(v) && !secondPerson.MatchString(v) {
				out = append(out, "«"+m[2]+" "+v+"» is in the third person in a sentence said to «вы»")
			}
		}
	}
	return out
}
