package linksign

import (
	"errors"
	"testing"
	"time"
)

// The leagues' purposes round-trip, keep their wire codes apart from the
// games', and are not taken for one another.
func TestLeaguePurposes(t *testing.T) {
	k, err := NewKeyring("k1", map[string][]byte{"k1": []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	codes := map[byte]bool{}
	for _, p := range allPurposes {
		codes[purposeCode(p)] = true
	}
	for _, p := range []Purpose{PurposeLeagueConfirm, PurposeLeagueInvite, PurposeLeagueOrganiser, PurposeLeagueMember} {
		c := purposeCode(p)
		if c == 0 || codes[c] || purposeFromCode(c) != p {
			t.Fatalf("%s: code %d (taken %v)", p, c, codes[c])
		}
		codes[c] = true
		tok, err := k.Sign(Claims{Purpose: p, Game: "abcdefghijklmnop", Seat: 3, Expires: now.Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := k.Verify(tok, now, Expect{Purpose: p, Game: "abcdefghijklmnop", AnySeat: true}); err != nil || got.Seat != 3 {
			t.Errorf("%s: %+v, %v", p, got, err)
		}
		if _, err := k.Verify(tok, now, Expect{Purpose: PurposeOrganiser, Game: "abcdefghijklmnop", AnySeat: true}); !errors.Is(err, ErrWrongPurpose) {
			t.Errorf("%s taken for the organiser's: %v", p, err)
		}
	}
}
