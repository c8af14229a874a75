package present_test

import (
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// TestPlayedFor: the service's origins of a command are worded in both
// languages; a player's own command (or a bot's) is not.
func TestPlayedFor(t *testing.T) {
	g := testGames.For("western")
	name := func(i int) string { return "P" }
	roll := engine.Action{Type: "roll"}
	for _, c := range []struct {
		by, l, want string
	}{
		{service.ByOrder, "ru", "по вашему приказу"},
		{service.ByOrder, "en", "standing order"},
		{service.ByDeadline, "ru", "по умолчанию"},
		{service.ByDeadline, "en", "default"},
		{service.ByBot, "en", ""},
		{"", "ru", ""},
	} {
		got := present.PlayedFor(c.l, g, roll, c.by, name)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("PlayedFor(%s, %q) = %q, want it to say %q", c.l, c.by, got, c.want)
		}
	}
	// The service says when a command was its player's or not.
	if !(service.Entry{By: service.ByOrder}).Delegated() || !(service.Entry{By: service.ByDeadline}).Delegated() || (service.Entry{By: service.ByBot}).Delegated() {
		t.Error("Entry.Delegated disagrees with the origins")
	}
}
