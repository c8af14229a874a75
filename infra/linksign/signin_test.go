package linksign

import (
	"errors"
	"testing"
	"time"
)

// TestSignInPurpose: a sign-in token (issue 17) keeps its wire code, round
// trips with its nonce, and opens no "my games" page by itself.
func TestSignInPurpose(t *testing.T) {
	if purposeCode(PurposeSignIn) != 8 || purposeFromCode(8) != PurposeSignIn {
		t.Fatal("PurposeSignIn must keep wire code 8")
	}
	k := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1})
	c := Claims{Purpose: PurposeSignIn, Game: "kq2xw7d5nrbm3f4tpxzq6ahe", Seat: NoSeat, Version: 3, Expires: testNow.Add(30 * time.Minute), Nonce: "s1"}
	tok, err := k.Sign(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := k.Verify(tok, testNow, Expect{Purpose: PurposeSignIn, AnyGame: true, Seat: NoSeat})
	if err != nil || got.Game != c.Game || got.Version != 3 || got.Nonce != "s1" {
		t.Fatalf("Verify = %v, %v", got, err)
	}
	if _, err := k.Verify(tok, testNow, Expect{Purpose: PurposeMyGames, AnyGame: true, Seat: NoSeat}); !errors.Is(err, ErrWrongPurpose) {
		t.Fatalf("a sign-in token as a my-games token: %v, want ErrWrongPurpose", err)
	}
}
