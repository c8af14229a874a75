package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// newEmail returns a lower-case address no other subtest or run uses.
func newEmail(t *testing.T) string {
	t.Helper()
	return newID(t) + "@example.org"
}

func mustGetPlayer(t *testing.T, s store.PlayerStore, email string) store.Player {
	t.Helper()
	p, err := s.GetPlayer(context.Background(), email)
	return must(t, p, err, "GetPlayer(%s)", email)
}

func mustAddGame(t *testing.T, s store.PlayerStore, email, gameID string, at int64) {
	t.Helper()
	mustOK(t, s.AddPlayerGame(context.Background(), email, gameID, at), "AddPlayerGame(%s, %s)", email, gameID)
}

func mustSetPrefs(t *testing.T, s store.PlayerStore, email, lang, mail, tz string, unsub bool, at int64) {
	t.Helper()
	mustOK(t, s.SetPlayerPrefs(context.Background(), email, lang, mail, tz, unsub, at), "SetPlayerPrefs(%s)", email)
}

func mustSuppress(t *testing.T, s store.PlayerStore, email, reason string, at int64) {
	t.Helper()
	mustOK(t, s.Suppress(context.Background(), email, reason, at), "Suppress(%s)", email)
}

// samePlayer compares all fields; no games and an empty list are alike.
func samePlayer(t *testing.T, got, want store.Player) {
	t.Helper()
	if got.Email != want.Email || got.Lang != want.Lang || got.Mail != want.Mail || got.TimeZone != want.TimeZone ||
		got.Unsubscribed != want.Unsubscribed || got.Suppressed != want.Suppressed ||
		got.SuppressedReason != want.SuppressedReason || got.SuppressedAt != want.SuppressedAt ||
		got.UpdatedAt != want.UpdatedAt || !slices.Equal(got.Games, want.Games) {
		t.Fatalf("player =\n\t%+v\nwant\n\t%+v", got, want)
	}
}

func testPlayerNotFound(t *testing.T, s store.PlayerStore) {
	email := newEmail(t)
	p, err := s.GetPlayer(context.Background(), email)
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetPlayer(unknown) = %+v, %v; want ErrNotFound", p, err)
	}
	// Another player's write does not create this one.
	mustAddGame(t, s, newEmail(t), newID(t), 1)
	if _, err := s.GetPlayer(context.Background(), email); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetPlayer(unknown) after another player's write: %v; want ErrNotFound", err)
	}
}

func testAddPlayerGame(t *testing.T, s store.PlayerStore) {
	email := newEmail(t)
	g1 := "g1-" + newID(t)
	mustAddGame(t, s, email, g1, 100)
	want := store.Player{Email: email, Games: []string{g1}, UpdatedAt: 100}
	samePlayer(t, mustGetPlayer(t, s, email), want)

	// The same game again changes nothing but the time.
	mustAddGame(t, s, email, g1, 101)
	want.UpdatedAt = 101
	samePlayer(t, mustGetPlayer(t, s, email), want)

	// Games come back sorted, whatever the order they were added in.
	g0, g2 := "g0-"+newID(t), "g2-"+newID(t)
	mustAddGame(t, s, email, g2, 102)
	mustAddGame(t, s, email, g0, 103)
	mustAddGame(t, s, email, g2, 104)
	want.Games, want.UpdatedAt = []string{g0, g1, g2}, 104
	samePlayer(t, mustGetPlayer(t, s, email), want)
}

func testConcurrentAdds(t *testing.T, s store.PlayerStore) {
	const adders = 16
	ctx := context.Background()
	email := newEmail(t)
	base := newID(t)
	var want []string
	for i := range adders {
		want = append(want, fmt.Sprintf("%s-%02d", base, i))
	}
	raceOK(t, "adder", adders, func(i int) error {
		return s.AddPlayerGame(ctx, email, want[i], int64(i+1))
	})
	p := mustGetPlayer(t, s, email)
	if !slices.Equal(p.Games, want) {
		t.Fatalf("games after %d concurrent adds = %v (%d), want %v", adders, p.Games, len(p.Games), want)
	}
	if p.UpdatedAt < 1 || p.UpdatedAt > adders {
		t.Fatalf("UpdatedAt = %d, want one of the adders' times", p.UpdatedAt)
	}
}

func testPlayerPrefs(t *testing.T, s store.PlayerStore) {
	// Prefs create a player with no games.
	fresh := newEmail(t)
	mustSetPrefs(t, s, fresh, "en", store.MailDigest, "", false, 5)
	samePlayer(t, mustGetPlayer(t, s, fresh), store.Player{Email: fresh, Lang: "en", Mail: store.MailDigest, UpdatedAt: 5})

	email := newEmail(t)
	g := newID(t)
	mustAddGame(t, s, email, g, 10)
	mustSetPrefs(t, s, email, "ru", store.MailTurns, "Europe/Moscow", true, 20)
	want := store.Player{Email: email, Lang: "ru", Mail: store.MailTurns, TimeZone: "Europe/Moscow", Unsubscribed: true, Games: []string{g}, UpdatedAt: 20}
	samePlayer(t, mustGetPlayer(t, s, email), want)

	// Prefs replace prefs, empty ones included.
	mustSetPrefs(t, s, email, "", "", "", false, 30)
	want = store.Player{Email: email, Games: []string{g}, UpdatedAt: 30}
	samePlayer(t, mustGetPlayer(t, s, email), want)
	mustSetPrefs(t, s, email, "en", store.MailAll, "", true, 40)
	want = store.Player{Email: email, Lang: "en", Mail: store.MailAll, Unsubscribed: true, Games: []string{g}, UpdatedAt: 40}
	samePlayer(t, mustGetPlayer(t, s, email), want)

	// A game added afterwards keeps the prefs.
	g2 := newID(t)
	mustAddGame(t, s, email, g2, 50)
	want.Games, want.UpdatedAt = slices.Sorted(slices.Values([]string{g, g2})), 50
	samePlayer(t, mustGetPlayer(t, s, email), want)
}

func testSuppress(t *testing.T, s store.PlayerStore) {
	// Suppress creates an unknown address.
	fresh := newEmail(t)
	mustSuppress(t, s, fresh, "bounce: 550 5.1.1 user unknown", 7)
	samePlayer(t, mustGetPlayer(t, s, fresh), store.Player{
		Email: fresh, Suppressed: true, SuppressedReason: "bounce: 550 5.1.1 user unknown", SuppressedAt: 7, UpdatedAt: 7,
	})

	email := newEmail(t)
	g := newID(t)
	mustAddGame(t, s, email, g, 10)
	mustSetPrefs(t, s, email, "ru", store.MailDigest, "", true, 20)
	mustSuppress(t, s, email, "complaint: abuse", 30)
	want := store.Player{
		Email: email, Lang: "ru", Mail: store.MailDigest, Unsubscribed: true,
		Suppressed: true, SuppressedReason: "complaint: abuse", SuppressedAt: 30,
		Games: []string{g}, UpdatedAt: 30,
	}
	samePlayer(t, mustGetPlayer(t, s, email), want)

	// Later writes keep the suppression.
	g2 := newID(t)
	mustAddGame(t, s, email, g2, 40)
	mustSetPrefs(t, s, email, "en", store.MailAll, "", false, 50)
	want.Lang, want.Mail, want.Unsubscribed = "en", store.MailAll, false
	want.Games, want.UpdatedAt = slices.Sorted(slices.Values([]string{g, g2})), 50
	samePlayer(t, mustGetPlayer(t, s, email), want)
}

func testPlayerCase(t *testing.T, s store.PlayerStore) {
	local := newID(t)
	mixed, lower := "Anna."+local+"@X.org", "anna."+local+"@x.org"
	g1, g2 := "a-"+newID(t), "b-"+newID(t)
	mustAddGame(t, s, mixed, g1, 1)
	samePlayer(t, mustGetPlayer(t, s, lower), store.Player{Email: lower, Games: []string{g1}, UpdatedAt: 1})

	mustAddGame(t, s, lower, g2, 2)
	mustSetPrefs(t, s, "ANNA."+local+"@X.ORG", "en", store.MailTurns, "", false, 3)
	mustSuppress(t, s, mixed, "bounce", 4)
	want := store.Player{
		Email: lower, Lang: "en", Mail: store.MailTurns,
		Suppressed: true, SuppressedReason: "bounce", SuppressedAt: 4,
		Games: []string{g1, g2}, UpdatedAt: 4,
	}
	for _, e := range []string{mixed, lower, "aNNA." + local + "@x.ORG"} {
		samePlayer(t, mustGetPlayer(t, s, e), want)
	}
}

func mustQueue(t *testing.T, s store.PlayerStore, email string, it store.DigestItem) {
	t.Helper()
	mustOK(t, s.QueueDigest(context.Background(), email, it, it.At), "QueueDigest(%s)", email)
}

func mustTake(t *testing.T, s store.PlayerStore, email string) []store.DigestItem {
	t.Helper()
	items, err := s.TakeDigest(context.Background(), email)
	return must(t, items, err, "TakeDigest(%s)", email)
}

func mustDue(t *testing.T, s store.PlayerStore, before int64) []string {
	t.Helper()
	emails, err := s.DigestsDue(context.Background(), before)
	return must(t, emails, err, "DigestsDue(%d)", before)
}

func testDigestQueueTake(t *testing.T, s store.PlayerStore) {
	// Nothing queued: nothing taken, and no player made.
	nobody := newEmail(t)
	if items := mustTake(t, s, nobody); len(items) != 0 {
		t.Fatalf("TakeDigest(unknown) = %v, want none", items)
	}
	if _, err := s.GetPlayer(context.Background(), nobody); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetPlayer after TakeDigest(unknown): %v; want ErrNotFound", err)
	}

	email := newEmail(t)
	g := newID(t)
	mustAddGame(t, s, email, g, 10)
	mustSetPrefs(t, s, email, "en", store.MailDigest, "", false, 20)
	want := []store.DigestItem{
		{Game: g, Kind: "accepted", Seat: 2, At: 100},
		{Game: g, Kind: "over", Seat: 0, At: 105},
		{Game: "other-" + g, Kind: "over", Seat: 3, At: 101},
	}
	for _, it := range want {
		mustQueue(t, s, strings.ToUpper(email[:1])+email[1:], it) // any case of the address
	}
	// Queueing keeps the rest of the player.
	samePlayer(t, mustGetPlayer(t, s, email), store.Player{Email: email, Lang: "en", Mail: store.MailDigest, Games: []string{g}, UpdatedAt: 20})

	if got := mustTake(t, s, email); !slices.Equal(got, want) {
		t.Fatalf("TakeDigest = %+v, want %+v", got, want)
	}
	if got := mustTake(t, s, email); len(got) != 0 {
		t.Fatalf("TakeDigest again = %+v, want none", got)
	}
	samePlayer(t, mustGetPlayer(t, s, email), store.Player{Email: email, Lang: "en", Mail: store.MailDigest, Games: []string{g}, UpdatedAt: 20})

	// Queueing starts again after a take.
	again := store.DigestItem{Game: g, Kind: "over", Seat: 1, At: 200}
	mustQueue(t, s, email, again)
	if got := mustTake(t, s, email); !slices.Equal(got, []store.DigestItem{again}) {
		t.Fatalf("TakeDigest after a new item = %+v, want [%+v]", got, again)
	}
}

func testDigestsDue(t *testing.T, s store.PlayerStore) {
	early, late := newEmail(t), newEmail(t)
	base := int64(1_000_000) + int64(len(newID(t)))
	mustQueue(t, s, early, store.DigestItem{Game: "g", Kind: "over", At: base})
	mustQueue(t, s, early, store.DigestItem{Game: "h", Kind: "over", At: base + 500}) // keeps the first time
	mustQueue(t, s, late, store.DigestItem{Game: "g", Kind: "over", At: base + 100})
	for _, c := range []struct {
		before      int64
		early, late bool
	}{
		{base - 1, false, false},
		{base, true, false},
		{base + 99, true, false},
		{base + 100, true, true},
		{base + 10_000, true, true},
	} {
		due := mustDue(t, s, c.before)
		if slices.Contains(due, early) != c.early || slices.Contains(due, late) != c.late {
			t.Fatalf("DigestsDue(base%+d) = %v; want early %v, late %v", c.before-base, due, c.early, c.late)
		}
	}
	// A digest taken is no longer due.
	if got := mustTake(t, s, early); len(got) != 2 {
		t.Fatalf("TakeDigest = %+v, want 2 items", got)
	}
	due := mustDue(t, s, base+10_000)
	if slices.Contains(due, early) || !slices.Contains(due, late) {
		t.Fatalf("DigestsDue after taking one = %v; want %s and not %s", due, late, early)
	}
	mustTake(t, s, late)
}

func testConcurrentQueue(t *testing.T, s store.PlayerStore) {
	const queuers = 16
	ctx := context.Background()
	email := newEmail(t)
	raceOK(t, "queuer", queuers, func(i int) error {
		return s.QueueDigest(ctx, email, store.DigestItem{Game: fmt.Sprintf("g%02d", i), Kind: "over", Seat: i, At: int64(i + 1)}, int64(i+1))
	})
	got := mustTake(t, s, email)
	seen := map[int]bool{}
	for _, it := range got {
		if it.Game != fmt.Sprintf("g%02d", it.Seat) || seen[it.Seat] {
			t.Fatalf("unexpected or repeated item %+v in %+v", it, got)
		}
		seen[it.Seat] = true
	}
	if len(seen) != queuers {
		t.Fatalf("%d items after %d concurrent queueings: %+v", len(seen), queuers, got)
	}
}
