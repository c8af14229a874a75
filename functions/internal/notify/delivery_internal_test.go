package notify

import (
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// TestRoute: the delivery rules, every class of mail against every
// standing a player can have.
func TestRoute(t *testing.T) {
	plain := store.Player{}
	for _, tc := range []struct {
		name string
		p    store.Player
		want map[Class]verdict
	}{
		{"every mail", plain, map[Class]verdict{ClassAct: deliver, ClassGame: deliver, ClassDigest: deliver, ClassTalk: deliver, ClassLeague: deliver}},
		{"suppressed", store.Player{Suppressed: true}, map[Class]verdict{ClassAct: suppressed, ClassGame: suppressed, ClassDigest: suppressed, ClassTalk: suppressed, ClassLeague: suppressed}},
		{"unsubscribed", store.Player{Unsubscribed: true}, map[Class]verdict{ClassAct: deliver, ClassGame: skip, ClassDigest: skip, ClassTalk: skip, ClassLeague: skip}},
		{"turns only", store.Player{Mail: store.MailTurns}, map[Class]verdict{ClassAct: deliver, ClassGame: skip, ClassDigest: skip, ClassTalk: deliver, ClassLeague: deliver}},
		{"daily digest", store.Player{Mail: store.MailDigest}, map[Class]verdict{ClassAct: deliver, ClassGame: queue, ClassDigest: deliver, ClassTalk: deliver, ClassLeague: deliver}},
	} {
		for c, want := range tc.want {
			if got := Route(tc.p, c); got != want {
				t.Errorf("%s, class %d: %d, want %d", tc.name, c, got, want)
			}
		}
	}
}
