package linksign

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

var allPurposes = []Purpose{PurposeSeat, PurposeInvite, PurposeOrganiser, PurposeSpectator, PurposeMyGames, PurposeUnsubscribe, PurposeConfirm, PurposeSignIn}

var allErrors = []error{ErrMalformed, ErrUnknownKey, ErrBadSignature, ErrExpired, ErrWrongPurpose, ErrWrongGame, ErrWrongSeat, ErrStaleVersion}

// fuzzTokens signs a spread of claims with k; the result maps each token to
// its claims. Sign is deterministic, so every fuzz worker builds the same set.
func fuzzTokens(t testing.TB, k *Keyring) map[string]Claims {
	out := map[string]Claims{}
	for i, p := range allPurposes {
		for _, c := range []Claims{
			{Purpose: p, Game: "01JNQ7Z8K3M5V2X9A4B6C8D0EF", Seat: i, Version: int64(i * 1000), Expires: testNow.Add(time.Hour)},
			{Purpose: p, Game: "g", Seat: NoSeat, Expires: testNow.Add(24 * time.Hour), Nonce: "n0nce"},
			{Purpose: p, Game: "игра", Seat: MaxSeat, Version: 1<<63 - 1, Expires: time.Unix(maxUnix, 0)},
		} {
			tok := mustSign(t, k, c)
			c.KeyID = k.Current()
			c.Expires = c.Expires.UTC()
			out[tok] = c
		}
	}
	return out
}

// FuzzVerify feeds arbitrary strings to Verify: it must never panic, must
// fail with one of the package's errors, and must accept only tokens that
// Sign produced.
func FuzzVerify(f *testing.F) {
	k1 := mustKeyring(f, "k1", map[string][]byte{"k1": testKey1})
	k2 := mustKeyring(f, "k2", map[string][]byte{"k1": testKey1, "k2": testKey2})
	signed := fuzzTokens(f, k1)
	for tok, c := range fuzzTokens(f, k2) {
		signed[tok] = c
	}

	for tok := range signed {
		f.Add(tok)
		f.Add(tok[:len(tok)/2])
		f.Add(tok[:len(tok)-1])
		f.Add(strings.Replace(tok, "k", "x", 1))
		f.Add(tok + tok)
	}
	for _, s := range []string{"", ".", "...", "v1", "v1.", "v1....", "v1.k1..", "v1.k1.AA.AA", "v2.k1.AAAA.AAAAAAAAAAAAAAAAAAAAAA",
		"v1.k1.AQ.AAAAAAAAAAAAAAAAAAAAAA", "\x00\xff", "v1.k1.\n.\n", strings.Repeat("A", 1000)} {
		f.Add(s)
	}

	f.Fuzz(func(t *testing.T, tok string) {
		for _, k := range []*Keyring{k1, k2} {
			for _, p := range allPurposes {
				c, err := k.Verify(tok, testNow, Expect{Purpose: p, AnyGame: true, AnySeat: true})
				if err == nil {
					want, ok := signed[tok]
					if !ok {
						t.Fatalf("accepted a token Sign did not produce: %q -> %v", tok, c)
					}
					if c != want {
						t.Fatalf("claims %v, signed %v", c, want)
					}
					continue
				}
				if c != (Claims{}) {
					t.Fatalf("claims %v returned with error %v", c, err)
				}
				known := false
				for _, e := range allErrors {
					known = known || errors.Is(err, e)
				}
				if !known {
					t.Fatalf("error %v is none of the package's errors", err)
				}
				if len(tok) >= 6 && strings.Contains(err.Error(), tok) && strings.ContainsAny(tok, ".ABCDEFGHIJKLMNOPQRSTUVWXYZ_=\n") {
					t.Fatalf("error %q contains the token", err)
				}
			}
		}
		_ = Redact(tok)
	})
}

// FuzzSignedPayload signs arbitrary payload bytes with a real key, so that
// the checks behind the MAC are fuzzed too: decoding never panics, and a
// payload that decodes has exactly one encoding (Sign of the claims gives
// the same token back).
func FuzzSignedPayload(f *testing.F) {
	k := mustKeyring(f, "k1", map[string][]byte{"k1": testKey1})
	for tok := range fuzzTokens(f, k) {
		raw, err := b64.DecodeString(strings.Split(tok, ".")[2])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte{})
	f.Add([]byte{1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01})
	f.Add([]byte{0x11, 1, 1, 1, 1, 'g', 0})

	f.Fuzz(func(t *testing.T, payload []byte) {
		if len(payload) > maxPayloadLen {
			return
		}
		tok := signRaw(k, "k1", payload)
		c, err := k.Verify(tok, time.Unix(0, 1), Expect{Purpose: PurposeSeat, AnyGame: true, AnySeat: true})
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrWrongPurpose) {
				t.Fatalf("error %v, want ErrMalformed or ErrWrongPurpose", err)
			}
			if errors.Is(err, ErrWrongPurpose) {
				// It decoded: check canonical form with its own purpose.
				dc, derr := decodePayload(payload)
				if derr != nil {
					t.Fatalf("Verify decoded what decodePayload rejects: %v", derr)
				}
				c = dc
				c.KeyID = "k1"
			} else {
				return
			}
		}
		again, err := k.Sign(c)
		if err != nil {
			t.Fatalf("decoded claims %v do not sign: %v", c, err)
		}
		if again != tok {
			raw, _ := b64.DecodeString(strings.Split(again, ".")[2])
			t.Fatalf("payload %x decodes to %v, which encodes as %x", payload, c, raw)
		}
		if !bytes.Equal(appendPayload(nil, &c), payload) {
			t.Fatalf("re-encoding differs")
		}
	})
}
