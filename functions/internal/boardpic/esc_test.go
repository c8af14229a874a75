package boardpic

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// TestEscLikeXML: esc writes what encoding/xml's EscapeText writes.
func TestEscLikeXML(t *testing.T) {
	for _, s := range []string{
		"", "plain", "Игрок «1» & <друг>", `"quoted" 'single'`, "tab\there\nline\rreturn",
		"\x00\x01\x1f ctl", "bad \xff utf-8 \xc3", "\uFFFD kept", "\uFFFE\uFFFF \U0001F600 \U0010FFFF", "\ud7ff\ue000",
		"a&b&c", "&&&", "<>", "end>",
	} {
		var want, got bytes.Buffer
		if err := xml.EscapeText(&want, []byte(s)); err != nil {
			t.Fatal(err)
		}
		esc(&got, s)
		if got.String() != want.String() {
			t.Errorf("esc(%q) = %q, want %q", s, got.String(), want.String())
		}
	}
}

func FuzzEscLikeXML(f *testing.F) {
	f.Add("Игрок «1» & <друг>\t\xff")
	f.Fuzz(func(t *testing.T, s string) {
		var want, got bytes.Buffer
		_ = xml.EscapeText(&want, []byte(s))
		esc(&got, s)
		if got.String() != want.String() {
			t.Errorf("esc(%q) = %q, want %q", s, got.String(), want.String())
		}
	})
}
