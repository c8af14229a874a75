package templates

import "testing"

// TestTemplatesParse: every set of templates parses (they are parsed on
// first use, so a broken one would otherwise show only when executed).
func TestTemplatesParse(t *testing.T) {
	for name, n := range map[string]int{
		"pages":     len(Pages().Templates()),
		"mail html": len(MailHTML().Templates()),
		"mail text": len(MailText().Templates()),
	} {
		if n == 0 {
			t.Errorf("%s: no templates", name)
		}
	}
}
