package service_test

import (
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
)

// TestCheckEmail: the one check of an address (issue 25) keeps what mail
// reaches, in its kept form, and refuses what it does not or what
// disguises itself.
func TestCheckEmail(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"  Anna.K+pbm@Example.ORG ", "anna.k+pbm@example.org"},
		{"o'neil@example.co.uk", "o'neil@example.co.uk"},
		{"org@пример.рф", "org@xn--e1afmkfd.xn--p1ai"},
		{"org@xn--e1afmkfd.xn--p1ai", "org@xn--e1afmkfd.xn--p1ai"},
		{strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + ".org", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + ".org"},
	} {
		got, err := service.CheckEmail(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("CheckEmail(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "a", "a@b", "Anna <a@example.org>", `"a b"@example.org`, "a@b@example.org",
		"юзер@example.org", "a\u00ad@example.org", "a\ufeff@example.org", "a@example.org\u200e", "a\xff@example.org",
		"a@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 63) + "." + strings.Repeat("e", 60) + ".org",
		"a@exa mple.org", "a@xn--80ak6aa92e.com.", "a@example..org", "a@[::1]", "a@1.2.3.4", "a@0x7f.1"} {
		if got, err := service.CheckEmail(bad); err == nil {
			t.Errorf("CheckEmail(%q) = %q, want a refusal", bad, got)
		} else if e := service.AsError(err); e.Code != service.CodeInvalid || e.RU == "" || e.EN == "" {
			t.Errorf("CheckEmail(%q): %v, want invalid in both languages", bad, err)
		}
	}
}
