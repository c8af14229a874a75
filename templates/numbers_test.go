package templates

import "testing"

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
