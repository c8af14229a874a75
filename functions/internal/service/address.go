package service

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// One check for the text and the addresses the service takes, from JSON
// and forms alike (issue 25).

// The mail standards' lengths (RFC 5321 §4.5.3.1): a local part of 64
// octets, a domain of 253 (255 on the wire, less its length bytes) in
// labels of 63 (idna.VerifyDNSLength), an address of 254 (MaxEmailLen: a
// path of 256, less its brackets).
const (
	maxLocalPart = 64
	maxDomain    = 253
)

// domains checks a domain by the IDNA rules for registering names (RFC
// 5891, UTS #46 without mapping: what is given must already be the
// domain's own form, so nothing is silently dropped or changed, such as
// a zero-width space), with the bidi, joiner and hyphen rules, letters,
// digits and hyphens only, and the DNS lengths; an A-label (xn--) must
// decode.
var domains = idna.New(idna.ValidateForRegistration(), idna.BidiRule(), idna.CheckJoiners(true), idna.CheckHyphens(true),
	idna.StrictDomainName(true), idna.VerifyDNSLength(true))

// CheckEmail checks an address as a person gives it (spaces round it are
// dropped) and answers it as it is kept: in lower case, its domain in
// ASCII (A-labels). An address is bare (no name, no angle brackets, no
// quoted local part: net/mail), its local part at most 64 octets of
// ASCII (the mail goes out through SES, which takes 7-bit addresses
// only), its domain a DNS name by the IDNA rules of at least two labels,
// the last not all digits (no IP literal, no "localhost"), nothing in it
// invisible or turning the text's direction, at most 254 octets in all.
func CheckEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case !utf8.ValidString(s):
		return "", errNotUTF8
	case s == "":
		return "", invalid("Нужен адрес почты.", "The email address is missing.")
	case len(s) > MaxEmailLen:
		return "", invalid("Слишком длинный адрес почты.", "The email address is too long.")
	}
	bad := func(ru, en string) error {
		return invalid(fmt.Sprintf("Неверный адрес почты «%s»: %s.", sanitize(s), ru), fmt.Sprintf("Invalid email address «%s»: %s.", sanitize(s), en))
	}
	if strings.ContainsFunc(s, invisible) {
		return "", bad("в нём невидимый знак или знак, меняющий направление текста", "it holds an invisible character or one that turns the text's direction")
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return "", bad("нужен адрес вида имя@домен", "it must be of the form name@domain")
	}
	at := strings.LastIndexByte(s, '@')
	local, domain := s[:at], s[at+1:]
	if len(local) > maxLocalPart {
		return "", bad(fmt.Sprintf("часть до @ длиннее %d знаков", maxLocalPart), fmt.Sprintf("the part before @ is over %d characters", maxLocalPart))
	}
	if strings.ContainsFunc(local, func(r rune) bool { return r > unicode.MaxASCII }) {
		return "", bad("до @ — только латинские буквы, цифры и знаки", "the part before @ may hold only Latin letters, digits and signs")
	}
	ascii, err := domains.ToASCII(strings.ToLower(domain))
	if err != nil || len(ascii) > maxDomain {
		return "", bad("после @ — не имя домена", "the part after @ is not a domain name")
	}
	labels := strings.Split(ascii, ".")
	if len(labels) < 2 || strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "", bad("после @ нужно имя домена с точкой, а не адрес IP", "the part after @ must be a domain name with a dot, not an IP address")
	}
	email := strings.ToLower(local) + "@" + ascii
	if len(email) > MaxEmailLen {
		return "", invalid("Слишком длинный адрес почты.", "The email address is too long.")
	}
	return email, nil
}

// invisible tells the characters a person cannot see, or that turn the
// direction of the text around them, with which a name or an address
// could pass for another: control and format characters (the zero-width
// space and joiners, direction marks, embeddings, overrides, isolates),
// default-ignorable code points, variation selectors, separators other
// than the space, surrogates, private use and noncharacters, and U+FFFD,
// which stands for bytes that were not text.
func invisible(r rune) bool {
	return r == utf8.RuneError || r != ' ' && unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Z,
		unicode.Bidi_Control, unicode.Join_Control, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector,
		unicode.Noncharacter_Code_Point)
}

// errNotUTF8 refuses text that is not text: bytes that are not UTF-8, or
// a JSON escape of a lone UTF-16 surrogate (which a decoder turns into
// U+FFFD), from JSON and forms alike.
var errNotUTF8 = invalid(`Текст запроса — не UTF-8: в нём байты, которые не складываются в знаки, или одиночный суррогат (\ud800–\udfff).`,
	`The request's text is not UTF-8: it holds bytes that make no characters, or a lone surrogate (\ud800–\udfff).`)

// NotUTF8 is the refusal of a request whose text is not UTF-8, with its
// cause for the log.
func NotUTF8(cause error) *Error {
	e := *errNotUTF8
	e.Cause = cause
	return &e
}
