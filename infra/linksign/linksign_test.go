package linksign

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

var (
	// Distinctive key bytes, so a leak shows in any rendering.
	testKey1 = []byte("K1-SECRET-key-material-0123456789abcdef")
	testKey2 = []byte("K2-SECRET-key-material-fedcba9876543210")
	testKey3 = []byte("K3-SECRET-key-material-zyxwvutsrqponmlk")

	testNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
)

func mustKeyring(t testing.TB, current string, keys map[string][]byte) *Keyring {
	t.Helper()
	k, err := NewKeyring(current, keys)
	if err != nil {
		t.Fatalf("NewKeyring: %v", err)
	}
	return k
}

func seatClaims() Claims {
	return Claims{
		Purpose: PurposeSeat,
		Game:    "01JNQ7Z8K3M5V2X9A4B6C8D0EF", // a ULID, 26 characters
		Seat:    3,
		Version: 42,
		Expires: testNow.Add(7 * 24 * time.Hour),
	}
}

func seatExpect(c Claims) Expect {
	return Expect{Purpose: c.Purpose, Game: c.Game, Seat: c.Seat, Version: c.Version}
}

func mustSign(t testing.TB, k *Keyring, c Claims) string {
	t.Helper()
	tok, err := k.Sign(c)
	if err != nil {
		t.Fatalf("Sign(%v): %v", c, err)
	}
	return tok
}

// replacePart returns tok with its i-th dot-separated part replaced.
func replacePart(tok string, i int, s string) string {
	parts := strings.Split(tok, ".")
	parts[i] = s
	return strings.Join(parts, ".")
}

// flipByte decodes the base64url part i of tok, xors byte j, re-encodes.
func flipByte(t *testing.T, tok string, i, j int) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	b, err := base64.RawURLEncoding.DecodeString(parts[i])
	if err != nil {
		t.Fatal(err)
	}
	b[j] ^= 0x01
	parts[i] = base64.RawURLEncoding.EncodeToString(b)
	return strings.Join(parts, ".")
}

func TestRoundTrip(t *testing.T) {
	k := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1})
	exp := testNow.Add(time.Hour)
	cases := []struct {
		name string
		c    Claims
		want Expect
	}{
		{"seat", seatClaims(), seatExpect(seatClaims())},
		{"seat 0", Claims{Purpose: PurposeSeat, Game: "g", Seat: 0, Expires: exp}, Expect{Purpose: PurposeSeat, Game: "g", Seat: 0}},
		{"max seat, max version", Claims{Purpose: PurposeSeat, Game: "g", Seat: MaxSeat, Version: 1<<63 - 1, Expires: exp}, Expect{Purpose: PurposeSeat, Game: "g", Seat: MaxSeat}},
		{"invite", Claims{Purpose: PurposeInvite, Game: "g1", Seat: 5, Expires: exp}, Expect{Purpose: PurposeInvite, Game: "g1", Seat: 5}},
		{"organiser", Claims{Purpose: PurposeOrganiser, Game: "g1", Seat: NoSeat, Expires: exp}, Expect{Purpose: PurposeOrganiser, Game: "g1", Seat: NoSeat}},
		{"spectator", Claims{Purpose: PurposeSpectator, Game: "g1", Seat: NoSeat, Expires: exp}, Expect{Purpose: PurposeSpectator, Game: "g1", Seat: NoSeat}},
		{"my games, any game", Claims{Purpose: PurposeMyGames, Game: "9f86d081884c7d659a2feaa0c55ad015", Seat: NoSeat, Expires: exp}, Expect{Purpose: PurposeMyGames, AnyGame: true, Seat: NoSeat}},
		{"unsubscribe", Claims{Purpose: PurposeUnsubscribe, Game: "player-7", Seat: NoSeat, Expires: exp}, Expect{Purpose: PurposeUnsubscribe, Game: "player-7", Seat: NoSeat}},
		// The longest address a player may give (254 characters) fits the
		// tokens that carry it (issue 9.3).
		{"unsubscribe, longest address", Claims{Purpose: PurposeUnsubscribe, Game: longestAddress, Seat: NoSeat, Expires: exp}, Expect{Purpose: PurposeUnsubscribe, Game: longestAddress, Seat: NoSeat}},
		{"my games, longest address", Claims{Purpose: PurposeMyGames, Game: longestAddress, Seat: NoSeat, Expires: exp}, Expect{Purpose: PurposeMyGames, Game: longestAddress, Seat: NoSeat}},
		{"nonce", Claims{Purpose: PurposeInvite, Game: "g1", Seat: 1, Expires: exp, Nonce: NewNonce()}, Expect{Purpose: PurposeInvite, Game: "g1", Seat: 1}},
		{"unicode game, any seat", Claims{Purpose: PurposeSeat, Game: "игра-№1", Seat: 2, Expires: exp}, Expect{Purpose: PurposeSeat, Game: "игра-№1", AnySeat: true}},
		{"version checked", seatClaims(), Expect{Purpose: PurposeSeat, Game: seatClaims().Game, Seat: 3, Version: 42, CheckVersion: true}},
		{"version 0 fits any", Claims{Purpose: PurposeSeat, Game: "g", Seat: 1, Expires: exp}, Expect{Purpose: PurposeSeat, Game: "g", Seat: 1, Version: 9, CheckVersion: true}},
		{"version not checked", seatClaims(), Expect{Purpose: PurposeSeat, Game: seatClaims().Game, Seat: 3, Version: 43}},
		{"expiry fraction dropped", Claims{Purpose: PurposeSeat, Game: "g", Seat: 1, Expires: exp.Add(999 * time.Millisecond)}, Expect{Purpose: PurposeSeat, Game: "g", Seat: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tok := mustSign(t, k, tc.c)
			if again := mustSign(t, k, tc.c); again != tok {
				t.Errorf("Sign not deterministic")
			}
			got, err := k.Verify(tok, testNow, tc.want)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			want := tc.c
			want.KeyID = "k1"
			want.Expires = want.Expires.Truncate(time.Second).UTC()
			if got != want {
				t.Errorf("Verify = %v, want %v", got, want)
			}
			for i := 0; i < len(tok); i++ {
				c := tok[i]
				if !isB64URL(c) && c != '.' {
					t.Fatalf("token has non URL-safe byte %q", c)
				}
			}
		})
	}
}

// longestAddress is an email address of 254 characters, the most RFC 5321
// allows.
var longestAddress = strings.Repeat("l", 64) + "@" + strings.Repeat(strings.Repeat("d", 63)+".", 2) + strings.Repeat("d", 53) + ".example"

func TestTokenLength(t *testing.T) {
	k := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1})
	tok := mustSign(t, k, seatClaims())
	t.Logf("seat token (26-char game id, kid k1): %d chars: %s", len(tok), tok)
	if len(tok) > 90 {
		t.Errorf("seat token is %d characters, want at most 90", len(tok))
	}
}

func TestVerifyRejects(t *testing.T) {
	k1 := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1, "k2": testKey2})
	c := seatClaims()
	good := mustSign(t, k1, c)
	want := seatExpect(c)

	// Signed with k2 (still in the ring) for the "wrong key id" cases.
	k2 := mustKeyring(t, "k2", map[string][]byte{"k1": testKey1, "k2": testKey2})
	byK2 := mustSign(t, k2, c)

	// Valid MAC over a payload with trailing bytes: structure check after MAC.
	parts := strings.Split(good, ".")
	raw, _ := base64.RawURLEncoding.DecodeString(parts[2])
	trailing := signRaw(k1, "k1", append(raw, 0))

	with := func(f func(*Expect)) Expect { e := want; f(&e); return e }
	cases := []struct {
		name  string
		tok   string
		now   time.Time
		want  Expect
		err   error
		keyrg *Keyring
	}{
		{"empty", "", testNow, want, ErrMalformed, nil},
		{"only prefix", "v1.", testNow, want, ErrMalformed, nil},
		{"other version", "v2" + good[2:], testNow, want, ErrMalformed, nil},
		{"no version", good[3:], testNow, want, ErrMalformed, nil},
		{"upper-case version", "V1" + good[2:], testNow, want, ErrMalformed, nil},
		{"extra part", good + ".AAAA", testNow, want, ErrMalformed, nil},
		{"extra dot", good + ".", testNow, want, ErrMalformed, nil},
		{"three parts", parts[0] + "." + parts[1] + "." + parts[3], testNow, want, ErrMalformed, nil},
		{"empty kid", replacePart(good, 1, ""), testNow, want, ErrMalformed, nil},
		{"long kid", replacePart(good, 1, strings.Repeat("k", 33)), testNow, want, ErrMalformed, nil},
		{"empty payload", replacePart(good, 2, ""), testNow, want, ErrMalformed, nil},
		{"empty mac", replacePart(good, 3, ""), testNow, want, ErrMalformed, nil},
		{"padded payload", replacePart(good, 2, base64.URLEncoding.EncodeToString(raw)), testNow, want, ErrMalformed, nil},
		{"std base64 payload", replacePart(good, 2, strings.Repeat("+/", 10)), testNow, want, ErrMalformed, nil},
		{"bad base64 length", replacePart(good, 2, parts[2]+strings.Repeat("A", (5-len(parts[2])%4)%4)), testNow, want, ErrMalformed, nil},
		{"newline in payload", replacePart(good, 2, parts[2][:4]+"\n"+parts[2][4:]), testNow, want, ErrMalformed, nil},
		{"space", good + " ", testNow, want, ErrMalformed, nil},
		{"non-canonical mac bits", replacePart(good, 3, parts[3][:21]+nextB64(parts[3][21])), testNow, want, ErrMalformed, nil},
		{"short mac", replacePart(good, 3, parts[3][:20]), testNow, want, ErrMalformed, nil},
		{"long mac", replacePart(good, 3, parts[3]+"AAAA"), testNow, want, ErrMalformed, nil},
		{"too long", good + strings.Repeat("A", 600), testNow, want, ErrMalformed, nil},
		{"forged mac, first byte", flipByte(t, good, 3, 0), testNow, want, ErrBadSignature, nil},
		{"forged mac, last byte", flipByte(t, good, 3, 15), testNow, want, ErrBadSignature, nil},
		{"altered payload, original mac", flipByte(t, good, 2, 10), testNow, want, ErrBadSignature, nil},
		{"other claims' payload, original mac", replacePart(good, 2, strings.Split(mustSign(t, k1, Claims{Purpose: PurposeSeat, Game: c.Game, Seat: 4, Version: 42, Expires: c.Expires}), ".")[2]), testNow, want, ErrBadSignature, nil},
		{"wrong key id (known key)", replacePart(good, 1, "k2"), testNow, want, ErrBadSignature, nil},
		{"wrong key id (k2 token named k1)", replacePart(byK2, 1, "k1"), testNow, want, ErrBadSignature, nil},
		{"unknown key id", replacePart(good, 1, "k9"), testNow, want, ErrUnknownKey, nil},
		{"trailing payload bytes under a valid mac", trailing, testNow, want, ErrMalformed, nil},
		{"expired at expiry", good, c.Expires, want, ErrExpired, nil},
		{"expired after", good, c.Expires.Add(time.Hour), want, ErrExpired, nil},
		{"zero now", good, time.Time{}, want, ErrExpired, nil},
		{"other seat", good, testNow, with(func(e *Expect) { e.Seat = 2 }), ErrWrongSeat, nil},
		{"seat -1 wanted", good, testNow, with(func(e *Expect) { e.Seat = NoSeat }), ErrWrongSeat, nil},
		{"other game", good, testNow, with(func(e *Expect) { e.Game = "01JNQ7Z8K3M5V2X9A4B6C8D0EG" }), ErrWrongGame, nil},
		{"empty game wanted", good, testNow, with(func(e *Expect) { e.Game = "" }), ErrWrongGame, nil},
		{"other purpose", good, testNow, with(func(e *Expect) { e.Purpose = PurposeSpectator }), ErrWrongPurpose, nil},
		{"organiser wanted", good, testNow, with(func(e *Expect) { e.Purpose = PurposeOrganiser }), ErrWrongPurpose, nil},
		{"no purpose wanted", good, testNow, with(func(e *Expect) { e.Purpose = "" }), ErrWrongPurpose, nil},
		{"zero Expect", good, testNow, Expect{}, ErrWrongPurpose, nil},
		{"stale version", good, testNow, with(func(e *Expect) { e.Version = 43; e.CheckVersion = true }), ErrStaleVersion, nil},
		{"future version", good, testNow, with(func(e *Expect) { e.Version = 41; e.CheckVersion = true }), ErrStaleVersion, nil},
		{"removed key after rotation", good, testNow, want, ErrUnknownKey, mustKeyring(t, "k2", map[string][]byte{"k2": testKey2})},
		{"same id, other key", good, testNow, want, ErrBadSignature, mustKeyring(t, "k1", map[string][]byte{"k1": testKey3})},
		{"nil keyring", good, testNow, want, ErrUnknownKey, (*Keyring)(nil)},
	}
	all := []error{ErrMalformed, ErrUnknownKey, ErrBadSignature, ErrExpired, ErrWrongPurpose, ErrWrongGame, ErrWrongSeat, ErrStaleVersion}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := k1
			if tc.keyrg != nil || strings.HasPrefix(tc.name, "nil") {
				k = tc.keyrg
			}
			got, err := k.Verify(tc.tok, tc.now, tc.want)
			if !errors.Is(err, tc.err) {
				t.Fatalf("Verify error = %v, want %v", err, tc.err)
			}
			for _, e := range all {
				if e != tc.err && errors.Is(err, e) {
					t.Errorf("error %v also matches %v", err, e)
				}
			}
			if got != (Claims{}) {
				t.Errorf("Verify returned claims %v with error", got)
			}
			checkNoLeak(t, "error", err.Error(), tc.tok)
		})
	}
}

// nextB64 returns the base64url character after c (wrapping), as a string.
func nextB64(c byte) string {
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	i := strings.IndexByte(alpha, c)
	return string(alpha[(i+1)%64])
}

// signRaw signs an arbitrary payload with key id kid of k.
func signRaw(k *Keyring, kid string, payload []byte) string {
	head := tokenPrefix + kid + "." + b64.EncodeToString(payload)
	mac := k.keys[kid].sum([]byte(head))
	return head + "." + b64.EncodeToString(mac[:macLen])
}

func TestRotation(t *testing.T) {
	old := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1})
	c := seatClaims()
	tokOld := mustSign(t, old, c)

	// A new current key is added: old tokens still verify, new ones use k2.
	both := mustKeyring(t, "k2", map[string][]byte{"k1": testKey1, "k2": testKey2})
	got, err := both.Verify(tokOld, testNow, seatExpect(c))
	if err != nil || got.KeyID != "k1" {
		t.Fatalf("old token with both keys: %v, %v", got, err)
	}
	tokNew := mustSign(t, both, c)
	if !strings.HasPrefix(tokNew, "v1.k2.") {
		t.Fatalf("new token not signed with k2: %s", Redact(tokNew))
	}
	if got, err := both.Verify(tokNew, testNow, seatExpect(c)); err != nil || got.KeyID != "k2" {
		t.Fatalf("new token: %v, %v", got, err)
	}
	// The old keyring does not know k2.
	if _, err := old.Verify(tokNew, testNow, seatExpect(c)); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("new token with old keyring: %v", err)
	}
	// k1 removed: its tokens fail, k2's still verify.
	only2 := mustKeyring(t, "k2", map[string][]byte{"k2": testKey2})
	if _, err := only2.Verify(tokOld, testNow, seatExpect(c)); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("old token after removal: %v", err)
	}
	if _, err := only2.Verify(tokNew, testNow, seatExpect(c)); err != nil {
		t.Fatalf("new token after removal: %v", err)
	}
}

func TestTruncatedAtEveryLength(t *testing.T) {
	k := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1})
	for _, c := range []Claims{seatClaims(), {Purpose: PurposeInvite, Game: "g", Seat: 0, Expires: testNow.Add(time.Hour), Nonce: "abcdefgh"}} {
		tok := mustSign(t, k, c)
		for n := 0; n < len(tok); n++ {
			_, err := k.Verify(tok[:n], testNow, Expect{Purpose: c.Purpose, AnyGame: true, AnySeat: true})
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("truncated to %d of %d: error %v, want ErrMalformed", n, len(tok), err)
			}
			// Dropping from the front must fail too.
			if _, err := k.Verify(tok[n+1:], testNow, Expect{Purpose: c.Purpose, AnyGame: true, AnySeat: true}); err == nil {
				t.Errorf("suffix from %d accepted", n+1)
			}
		}
	}
}

func TestSignRejectsInvalidClaims(t *testing.T) {
	k := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1})
	exp := testNow.Add(time.Hour)
	ok := Claims{Purpose: PurposeSeat, Game: "g", Seat: 1, Expires: exp}
	mod := func(f func(*Claims)) Claims { c := ok; f(&c); return c }
	cases := map[string]Claims{
		"no purpose":       mod(func(c *Claims) { c.Purpose = "" }),
		"unknown purpose":  mod(func(c *Claims) { c.Purpose = "admin" }),
		"no game":          mod(func(c *Claims) { c.Game = "" }),
		"long game":        mod(func(c *Claims) { c.Game = strings.Repeat("g", MaxGameLen+1) }),
		"control in game":  mod(func(c *Claims) { c.Game = "g\n1" }),
		"invalid utf8":     mod(func(c *Claims) { c.Game = "g\xff" }),
		"seat -2":          mod(func(c *Claims) { c.Seat = -2 }),
		"seat too big":     mod(func(c *Claims) { c.Seat = MaxSeat + 1 }),
		"negative version": mod(func(c *Claims) { c.Version = -1 }),
		"no expiry":        mod(func(c *Claims) { c.Expires = time.Time{} }),
		"expiry 1970":      mod(func(c *Claims) { c.Expires = time.Unix(0, 0) }),
		"expiry year 10000": mod(func(c *Claims) {
			c.Expires = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
		}),
		"long nonce": mod(func(c *Claims) { c.Nonce = strings.Repeat("n", MaxNonceLen+1) }),
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			tok, err := k.Sign(c)
			if !errors.Is(err, ErrInvalidClaims) || tok != "" {
				t.Fatalf("Sign = %q, %v; want ErrInvalidClaims", tok, err)
			}
		})
	}
	if tok, err := k.Sign(mod(func(c *Claims) { c.KeyID = "k9" })); err != nil || !strings.HasPrefix(tok, "v1.k1.") {
		t.Errorf("Sign with a KeyID set: %q, %v; want the current key", Redact(tok), err)
	}
}

func TestNewKeyringRejects(t *testing.T) {
	cases := []struct {
		name    string
		current string
		keys    map[string][]byte
	}{
		{"no keys", "k1", nil},
		{"short key", "k1", map[string][]byte{"k1": testKey1[:31]}},
		{"current missing", "k2", map[string][]byte{"k1": testKey1}},
		{"bad id", "k.1", map[string][]byte{"k.1": testKey1}},
		{"long id", strings.Repeat("k", 33), map[string][]byte{strings.Repeat("k", 33): testKey1}},
		{"empty id", "", map[string][]byte{"": testKey1}},
		{"key as id", "k1", map[string][]byte{"k1": testKey1, string(testKey2): testKey2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, err := NewKeyring(tc.current, tc.keys)
			if err == nil || k != nil {
				t.Fatalf("NewKeyring = %v, %v; want an error", k, err)
			}
			checkNoLeak(t, "error", err.Error(), "")
		})
	}
	// The keyring copies its keys.
	key := bytes.Clone(testKey1)
	k := mustKeyring(t, "k1", map[string][]byte{"k1": key})
	tok := mustSign(t, k, seatClaims())
	key[0] ^= 1
	if _, err := k.Verify(tok, testNow, seatExpect(seatClaims())); err != nil {
		t.Fatalf("keyring shares the caller's key slice: %v", err)
	}
}

// leakForms lists renderings of the test keys that must never be printed.
func leakForms() []string {
	var forms []string
	for _, k := range [][]byte{testKey1, testKey2, testKey3} {
		forms = append(forms,
			string(k),
			string(k[:12]), // "K1-SECRET-ke"
			hex.EncodeToString(k[:8]),
			fmt.Sprint(k[:6]), // "[75 49 45 83 69 67"
			strings.Trim(fmt.Sprint(k[:6]), "[]"),
			fmt.Sprintf("%x", k[:8]),
			base64.StdEncoding.EncodeToString(k)[:16],
			base64.RawURLEncoding.EncodeToString(k)[:16],
		)
	}
	return forms
}

// checkNoLeak fails if s contains key material or any 8-character piece of
// the token's payload or MAC.
func checkNoLeak(t *testing.T, what, s, token string) {
	t.Helper()
	for _, f := range leakForms() {
		if strings.Contains(s, f) {
			t.Errorf("%s %q contains key material %q", what, s, f)
		}
	}
	if token == "" {
		return
	}
	// Skip "v1.<kid>.": the kid may be shown.
	rest := token
	if i := strings.IndexByte(token, '.'); i >= 0 {
		if j := strings.IndexByte(token[i+1:], '.'); j >= 0 {
			rest = token[i+1+j+1:]
		}
	}
	for i := 0; i+8 <= len(rest); i++ {
		if strings.Contains(s, rest[i:i+8]) {
			t.Errorf("%s %q contains token text %q", what, s, rest[i:i+8])
			return
		}
	}
}

func TestNoSecretsPrinted(t *testing.T) {
	k := mustKeyring(t, "k2", map[string][]byte{"k1": testKey1, "k2": testKey2})
	tok := mustSign(t, k, seatClaims())
	claims, err := k.Verify(tok, testNow, seatExpect(seatClaims()))
	if err != nil {
		t.Fatal(err)
	}

	var outs []string
	for _, v := range []any{k, *k} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x", "%X", "%o", "%b", "%c", "%U", "%10.3v"} {
			outs = append(outs, fmt.Sprintf(verb, v))
		}
		outs = append(outs, fmt.Sprint(v), fmt.Sprintln(v), fmt.Sprint([]any{v}), fmt.Sprintf("%+v", struct{ K any }{v}))
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(j))
	}
	var logs bytes.Buffer
	for _, h := range []slog.Handler{slog.NewJSONHandler(&logs, nil), slog.NewTextHandler(&logs, nil)} {
		l := slog.New(h)
		l.Info("keyring", "keyring", k, "value", *k, "claims", claims, "token", Redact(tok))
	}
	outs = append(outs, logs.String(), claims.String(), fmt.Sprintf("%+v", claims), fmt.Sprintf("%#v", k), Redact(tok))

	for _, s := range outs {
		checkNoLeak(t, "output", s, tok)
	}
	if s := k.String(); !strings.Contains(s, "k1") || !strings.Contains(s, "k2") || !strings.Contains(s, "current=k2") {
		t.Errorf("String = %q, want the key ids", s)
	}
	if !strings.Contains(logs.String(), `"current":"k2"`) {
		t.Errorf("slog JSON output lacks the current key id: %s", logs.String())
	}
	if got := fmt.Sprint(claims); !strings.Contains(got, "seat=3") || !strings.Contains(got, "purpose=seat") {
		t.Errorf("Claims.String = %q", got)
	}
}

func TestRedact(t *testing.T) {
	k := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1})
	tok := mustSign(t, k, seatClaims())
	cases := map[string]string{
		tok:                   "v1.k1.[redacted]",
		"":                    "[redacted token]",
		"v1.k1":               "[redacted token]",
		"v1..abc.def":         "[redacted token]",
		"v2.k1.abc.def":       "[redacted token]",
		"v1.k<script>.ab.cd":  "[redacted token]",
		"secret-looking-text": "[redacted token]",
	}
	for in, want := range cases {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewNonce(t *testing.T) {
	a, b := NewNonce(), NewNonce()
	if a == b || len(a) != 11 {
		t.Errorf("NewNonce = %q, %q", a, b)
	}
}

func BenchmarkSign(b *testing.B) {
	k := mustKeyring(b, "k1", map[string][]byte{"k1": testKey1})
	c := seatClaims()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k.Sign(c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	k := mustKeyring(b, "k1", map[string][]byte{"k1": testKey1})
	c := seatClaims()
	tok := mustSign(b, k, c)
	want := seatExpect(c)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k.Verify(tok, testNow, want); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyParallel(b *testing.B) {
	k := mustKeyring(b, "k1", map[string][]byte{"k1": testKey1})
	c := seatClaims()
	tok := mustSign(b, k, c)
	want := seatExpect(c)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := k.Verify(tok, testNow, want); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
