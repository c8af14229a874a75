package games

import (
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// TestSecret: the games say which actions other seats see by type only
// (P-3): «Вестерн»'s sealed bids and passes, nothing of «Бизнесмен».
func TestSecret(t *testing.T) {
	for _, tc := range []struct {
		kind, typ string
		want      bool
	}{
		{"western", "bid", true},
		{"western", "pass", true},
		{"western", "buy", false},
		{"businessman", "play_card", false},
		{"businessman", "buy", false},
		{"chess", "bid", false},
	} {
		if got := reg.Secret(tc.kind, engine.Action{Type: tc.typ, Amount: 5}); got != tc.want {
			t.Errorf("reg.Secret(%s, %s) = %v, want %v", tc.kind, tc.typ, got, tc.want)
		}
	}
}
