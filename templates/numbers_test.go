package templates

import (
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// TestOneFormatPerLanguage (issue 10): every number is written the
// reader's way by one printer: grouping, decimals, the minus sign, money.
func TestOneFormatPerLanguage(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Num("ru", 20000), "20\u00a0000"},
		{Num("en", 20000), "20,000"},
		{Num("ru", -2), "−2"},
		{Signed("ru", -2), "−2"},
		{Signed("en", 3), "+3"},
		{Dec("ru", 1.5), "1,5"},
		{Dec("en", 1.5), "1.5"},
		{USD("ru", 50000), "50\u00a0000\u00a0$"},
		{USD("en", 50000), "$50,000"},
		{USD("en", -50000), "−$50,000"},
		{Tf("ru", "n_laps", 21), "21 круг"},
		{Tf("ru", "n_laps", 22), "22 круга"},
		{Tf("en", "n_laps", 1), "1 lap"},
		{Tf("en", "n_moves", 1234), "1,234 actions"},
		{Tf("ru", "note_mult", Dec("ru", 1.5)), "по цене ×1,5"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}

// TestCountedFormsAsCLDR: the counted texts' forms, chosen here, are
// those golang.org/x/text's plural catalog chose (CLDR's rules; the texts
// were written through it before issue 24), for every count up to 2,000,
// larger ones, negative ones and a count that is not whole. Past six
// digits x/text only approximates the rules (1,000,001 «кругов»), CLDR
// and this say «круг».
func TestCountedFormsAsCLDR(t *testing.T) {
	c := catalog.NewBuilder(catalog.Fallback(language.Russian))
	for key, f := range counted {
		if err := c.Set(language.Russian, key, plural.Selectf(f.arg, "%d",
			"one", f.ru[0], "few", f.ru[1], "many", f.ru[2], "other", f.ru[1])); err != nil {
			t.Fatal(err)
		}
		if err := c.Set(language.English, key, plural.Selectf(f.arg, "%d", "one", f.en[0], "other", f.en[1])); err != nil {
			t.Fatal(err)
		}
	}
	cldr := map[string]*message.Printer{
		"ru": message.NewPrinter(language.Russian, message.Catalog(c)),
		"en": message.NewPrinter(language.English, message.Catalog(c)),
	}
	counts := []any{int64(100_001), 100_022, 999_999, 10_000_000, -1, -21, -5, uint8(3), int32(11), 2.5}
	for n := range 2001 {
		counts = append(counts, n)
	}
	for key, f := range counted {
		for _, lang := range []string{"ru", "en"} {
			for _, n := range counts {
				args := []any{n}
				if f.arg == 2 {
					args = []any{2, n}
				}
				want := minus(cldr[lang].Sprintf(key, args...))
				if got := Sprintf(lang, key, args...); got != want {
					t.Errorf("%s %s %v: %q, x/text's plural catalog %q", lang, key, n, got, want)
				}
			}
		}
	}
	if got := Sprintf("ru", "n_laps", 1_000_001); got != "1\u00a0000\u00a0001 круг" {
		t.Errorf("1,000,001 laps: %q", got)
	}
}
