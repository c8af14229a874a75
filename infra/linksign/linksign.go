// Package linksign makes and checks the signed tokens carried by the action
// links mailed to players, and used for API authorisation.
//
// A token has four parts separated by dots:
//
//		v1.<kid>.<payload>.<mac>
//
//	  - v1 is the format version.
//	  - kid names the key in the [Keyring] that signed the token: 1 to 32
//	    characters from [A-Za-z0-9_-].
//	  - payload is the [Claims] in the compact binary encoding below,
//	    base64url without padding.
//	  - mac is HMAC-SHA256, keyed with the key named kid, over the ASCII text
//	    "v1.<kid>.<payload>" (so the version and key id are signed too),
//	    truncated to its first 16 bytes (128 bits, the truncation RFC 4868
//	    uses) and encoded base64url without padding (22 characters).
//
// Every character of a token is URL-safe, so it goes into a URL or a mail
// as it stands. A seat token with a 26-character game id and key id "k1" is
// 76 characters long.
//
// Payload encoding, v1 (varints as in encoding/binary):
//
//	byte     purpose code in the low 4 bits; 0x10 set if a nonce follows;
//	         the other bits are zero
//	uvarint  Expires, Unix seconds (1 .. year 9999)
//	varint   Seat (-1 .. MaxSeat)
//	uvarint  Version (0 .. MaxInt64)
//	uvarint  length of Game (1 .. 254), then its bytes
//	         [uvarint length of Nonce (1 .. 32), then its bytes]
//
// Purpose codes are part of the format and must never be renumbered.
//
// Verification parses the structure strictly, checks the MAC in constant
// time (hmac.Equal) before looking at the payload, and then checks expiry,
// purpose, game, seat and, if asked, version. Errors are the sentinel values
// below (test with errors.Is); their messages never contain the token or any
// key material. A Keyring is immutable and safe for concurrent use.
package linksign

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Purpose says what a token lets its holder do.
type Purpose string

// The purposes a token can carry.
const (
	PurposeSeat        Purpose = "seat"    // act for a seat in a game
	PurposeInvite      Purpose = "invite"  // accept an invitation to a game
	PurposeOrganiser   Purpose = "org"     // organise a game
	PurposeSpectator   Purpose = "view"    // read-only view of a game
	PurposeMyGames     Purpose = "me"      // a player's "my games" page; Game holds the player's link id (or, in older tokens, address)
	PurposeUnsubscribe Purpose = "unsub"   // unsubscribe from mail
	PurposeConfirm     Purpose = "confirm" // the organiser confirms their address, releasing a game's invitations
	PurposeSignIn      Purpose = "signin"  // a short-lived sign-in link to "my games"; Game holds the player's link id

	// Leagues (issue 14): Game holds the league's id.
	PurposeLeagueInvite    Purpose = "league-invite" // join a league (the invitation link)
	PurposeLeagueOrganiser Purpose = "league-org"    // organise a league
	PurposeLeagueMember    Purpose = "league-member" // a member's pages of a league; Seat is the member's index
	// PurposeLeagueConfirm is a league's confirmation link, mailed to an
	// address (issue 25): its owner confirms it — the organiser's (Seat
	// NoSeat) or a member's who joined (Seat: their index).
	PurposeLeagueConfirm Purpose = "league-confirm"
)

// Valid reports whether p is one of the Purpose constants.
func (p Purpose) Valid() bool { return purposeCode(p) != 0 }

// purposeCode gives the wire code of p, or 0 if p is not a known purpose.
func purposeCode(p Purpose) byte {
	switch p {
	case PurposeSeat:
		return 1
	case PurposeInvite:
		return 2
	case PurposeOrganiser:
		return 3
	case PurposeSpectator:
		return 4
	case PurposeMyGames:
		return 5
	case PurposeUnsubscribe:
		return 6
	case PurposeConfirm:
		return 7
	case PurposeSignIn:
		return 8
	// Leagues take codes from the top, apart from the games' purposes.
	case PurposeLeagueConfirm:
		return 12
	case PurposeLeagueInvite:
		return 13
	case PurposeLeagueOrganiser:
		return 14
	case PurposeLeagueMember:
		return 15
	}
	return 0
}

func purposeFromCode(c byte) Purpose {
	switch c {
	case 1:
		return PurposeSeat
	case 2:
		return PurposeInvite
	case 3:
		return PurposeOrganiser
	case 4:
		return PurposeSpectator
	case 5:
		return PurposeMyGames
	case 6:
		return PurposeUnsubscribe
	case 7:
		return PurposeConfirm
	case 8:
		return PurposeSignIn
	case 12:
		return PurposeLeagueConfirm
	case 13:
		return PurposeLeagueInvite
	case 14:
		return PurposeLeagueOrganiser
	case 15:
		return PurposeLeagueMember
	}
	return ""
}

// Limits on the claims a token can carry. MaxGameLen is the longest email
// address (RFC 5321), which "my games" and unsubscribe tokens carry.
const (
	NoSeat      = -1        // Seat value for tokens not tied to a seat
	MaxSeat     = 1<<16 - 1 // largest Seat a token can carry
	MaxGameLen  = 254       // longest Game, in bytes
	MaxNonceLen = 32        // longest Nonce, in bytes
)

const (
	tokenPrefix = "v1."
	macLen      = 16 // bytes of HMAC-SHA256 kept
	maxKIDLen   = 32 // longest key id
	nonceFlag   = 0x10
	maxUnix     = 253402300799 // 9999-12-31T23:59:59Z
	// Largest payload: flags, three varints of at most 10 bytes, two
	// length-prefixed strings.
	maxPayloadLen = 1 + 3*binary.MaxVarintLen64 + 2 + MaxGameLen + 1 + MaxNonceLen
	maxTokenLen   = len(tokenPrefix) + maxKIDLen + 1 + (maxPayloadLen*4+2)/3 + 1 + (macLen*4+2)/3
)

var (
	b64           = base64.RawURLEncoding.Strict()
	encodedMACLen = b64.EncodedLen(macLen)
)

// Errors returned by Verify (and ErrInvalidClaims by Sign). Test for them
// with errors.Is; the returned errors may wrap them with a short reason.
var (
	ErrMalformed     = errors.New("linksign: malformed token")
	ErrUnknownKey    = errors.New("linksign: unknown signing key")
	ErrBadSignature  = errors.New("linksign: bad signature")
	ErrExpired       = errors.New("linksign: token expired")
	ErrWrongPurpose  = errors.New("linksign: token is for another purpose")
	ErrWrongGame     = errors.New("linksign: token is for another game")
	ErrWrongSeat     = errors.New("linksign: token is for another seat")
	ErrStaleVersion  = errors.New("linksign: token is for another game version")
	ErrInvalidClaims = errors.New("linksign: invalid claims")
)

// Claims is what a token says.
type Claims struct {
	// KeyID names the key that signed the token. Sign sets it to the
	// keyring's current key; Verify fills it from the token.
	KeyID   string
	Purpose Purpose
	// Game is the game id; for PurposeMyGames, PurposeUnsubscribe and
	// PurposeSignIn it is the player's opaque link id (older "my games" and
	// unsubscribe tokens carry the email address itself). Required: valid UTF-8 without control
	// characters, at most MaxGameLen bytes.
	Game string
	// Seat is the seat index, or NoSeat (-1) when not applicable.
	Seat int
	// Version is the game version the link was issued for; 0 means any.
	Version int64
	// Expires is the instant from which the token is no longer accepted.
	// Required. Tokens carry whole seconds: a fraction is dropped, so the
	// token expires up to a second early.
	Expires time.Time
	// Nonce is optional opaque data (at most MaxNonceLen bytes), for
	// example from NewNonce, to tell apart otherwise equal tokens.
	Nonce string
}

// String describes c for logs. Claims hold no secret, but the nonce is only
// shown as set or not.
func (c Claims) String() string {
	var b strings.Builder
	b.WriteString("linksign.Claims{kid=")
	b.WriteString(c.KeyID)
	b.WriteString(" purpose=")
	b.WriteString(string(c.Purpose))
	b.WriteString(" game=")
	b.WriteString(strconv.Quote(c.Game))
	b.WriteString(" seat=")
	b.WriteString(strconv.Itoa(c.Seat))
	b.WriteString(" version=")
	b.WriteString(strconv.FormatInt(c.Version, 10))
	b.WriteString(" expires=")
	b.WriteString(c.Expires.UTC().Format(time.RFC3339))
	if c.Nonce != "" {
		b.WriteString(" nonce=set")
	}
	b.WriteString("}")
	return b.String()
}

// LogValue implements slog.LogValuer.
func (c Claims) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.String("kid", c.KeyID),
		slog.String("purpose", string(c.Purpose)),
		slog.String("game", c.Game),
		slog.Int("seat", c.Seat),
		slog.Int64("version", c.Version),
		slog.Time("expires", c.Expires),
	}
	if c.Nonce != "" {
		attrs = append(attrs, slog.Bool("nonce", true))
	}
	return slog.GroupValue(attrs...)
}

// Expect states what Verify requires of a token beyond a good signature and
// an expiry after now. The zero value accepts nothing: Purpose must be set,
// and Game and Seat are compared exactly unless AnyGame or AnySeat is set
// (so a check of a token not tied to a seat needs Seat: NoSeat).
type Expect struct {
	Purpose Purpose // required; the token's purpose must equal it

	Game    string // the token's game must equal it, unless AnyGame
	AnyGame bool   // accept any game (the caller takes it from the claims)

	Seat    int  // the token's seat must equal it, unless AnySeat
	AnySeat bool // accept any seat (the caller takes it from the claims)

	// With CheckVersion, a token issued for a version other than Version
	// fails with ErrStaleVersion (a token with Version 0 fits any version).
	// Without it the caller compares Claims.Version itself, for example to
	// show "already done" for a stale link.
	Version      int64
	CheckVersion bool
}

// NewNonce returns a random nonce (8 bytes from crypto/rand, base64url).
func NewNonce() string {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand.Read crashes the program instead)
	return b64.EncodeToString(b[:])
}

// validate checks the claims Sign may sign; the error says which field.
func (c *Claims) validate() error {
	switch {
	case !c.Purpose.Valid():
		return fmt.Errorf("%w: unknown purpose", ErrInvalidClaims)
	case !validGame(c.Game):
		return fmt.Errorf("%w: game must be 1-%d bytes of UTF-8 without control characters", ErrInvalidClaims, MaxGameLen)
	case c.Seat < NoSeat || c.Seat > MaxSeat:
		return fmt.Errorf("%w: seat out of range", ErrInvalidClaims)
	case c.Version < 0:
		return fmt.Errorf("%w: negative version", ErrInvalidClaims)
	case c.Expires.IsZero() || c.Expires.Unix() < 1 || c.Expires.Unix() > maxUnix:
		return fmt.Errorf("%w: expiry missing or out of range", ErrInvalidClaims)
	case len(c.Nonce) > MaxNonceLen:
		return fmt.Errorf("%w: nonce longer than %d bytes", ErrInvalidClaims, MaxNonceLen)
	}
	return nil
}

func validGame(g string) bool {
	if len(g) == 0 || len(g) > MaxGameLen || !utf8.ValidString(g) {
		return false
	}
	for _, r := range g {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// validKID reports whether id can name a key: 1-32 of [A-Za-z0-9_-].
func validKID(id string) bool {
	if len(id) == 0 || len(id) > maxKIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !isB64URL(id[i]) {
			return false
		}
	}
	return true
}

func isB64URL(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// appendPayload appends the v1 binary encoding of c (already validated).
func appendPayload(dst []byte, c *Claims) []byte {
	flags := purposeCode(c.Purpose)
	if c.Nonce != "" {
		flags |= nonceFlag
	}
	dst = append(dst, flags)
	dst = binary.AppendUvarint(dst, uint64(c.Expires.Unix()))
	dst = binary.AppendVarint(dst, int64(c.Seat))
	dst = binary.AppendUvarint(dst, uint64(c.Version))
	dst = binary.AppendUvarint(dst, uint64(len(c.Game)))
	dst = append(dst, c.Game...)
	if c.Nonce != "" {
		dst = binary.AppendUvarint(dst, uint64(len(c.Nonce)))
		dst = append(dst, c.Nonce...)
	}
	return dst
}

var errPayload = fmt.Errorf("%w: bad payload", ErrMalformed)

// decodePayload parses a v1 payload strictly.
func decodePayload(p []byte) (Claims, error) {
	var c Claims
	if len(p) == 0 {
		return c, errPayload
	}
	flags := p[0]
	p = p[1:]
	if flags&^(nonceFlag|0x0f) != 0 {
		return c, errPayload
	}
	if c.Purpose = purposeFromCode(flags & 0x0f); c.Purpose == "" {
		return c, errPayload
	}

	exp, n := uvarint(p)
	if n <= 0 || exp < 1 || exp > maxUnix {
		return c, errPayload
	}
	p = p[n:]
	c.Expires = time.Unix(int64(exp), 0).UTC()

	seat, n := binary.Varint(p)
	if n <= 0 || n > 1 && p[n-1] == 0 || seat < NoSeat || seat > MaxSeat {
		return c, errPayload
	}
	p = p[n:]
	c.Seat = int(seat)

	ver, n := uvarint(p)
	if n <= 0 || ver > math.MaxInt64 {
		return c, errPayload
	}
	p = p[n:]
	c.Version = int64(ver)

	game, p, ok := cutString(p, MaxGameLen)
	if !ok || !validGame(game) {
		return c, errPayload
	}
	c.Game = game

	if flags&nonceFlag != 0 {
		if c.Nonce, p, ok = cutString(p, MaxNonceLen); !ok {
			return c, errPayload
		}
	}
	if len(p) != 0 {
		return c, errPayload
	}
	return c, nil
}

// uvarint is binary.Uvarint that also rejects non-minimal encodings (n is 0
// then), so that a payload has exactly one encoding.
func uvarint(p []byte) (uint64, int) {
	v, n := binary.Uvarint(p)
	if n > 1 && p[n-1] == 0 {
		return 0, 0
	}
	return v, n
}

// cutString reads a length-prefixed string of 1..max bytes from p.
func cutString(p []byte, max int) (string, []byte, bool) {
	l, n := uvarint(p)
	if n <= 0 || l == 0 || l > uint64(max) || l > uint64(len(p)-n) {
		return "", nil, false
	}
	p = p[n:]
	return string(p[:l]), p[l:], true
}

// Sign returns a token for c signed with the keyring's current key.
// c.KeyID is ignored: the token names the current key. The same claims and
// key always give the same token.
func (k *Keyring) Sign(c Claims) (string, error) {
	if k == nil || k.keys == nil {
		return "", errors.New("linksign: nil keyring")
	}
	if err := c.validate(); err != nil {
		return "", err
	}
	s := k.keys[k.current]
	var raw [maxPayloadLen]byte
	payload := appendPayload(raw[:0], &c)

	buf := make([]byte, 0, len(tokenPrefix)+len(k.current)+1+b64.EncodedLen(len(payload))+1+encodedMACLen)
	buf = append(buf, tokenPrefix...)
	buf = append(buf, k.current...)
	buf = append(buf, '.')
	buf = b64.AppendEncode(buf, payload)
	mac := s.sum(buf)
	buf = append(buf, '.')
	buf = b64.AppendEncode(buf, mac[:macLen])
	return string(buf), nil
}

// Verify checks token and returns its claims. It fails with ErrMalformed if
// the token is not a well-formed v1 token, ErrUnknownKey if its key is not in
// the keyring, ErrBadSignature if the MAC does not match, ErrExpired if now is
// not before its expiry (or now is the zero time), and ErrWrongPurpose,
// ErrWrongGame, ErrWrongSeat or ErrStaleVersion if it does not meet want.
// On any error the returned Claims are zero.
func (k *Keyring) Verify(token string, now time.Time, want Expect) (Claims, error) {
	c, err := k.verify(token, now, want)
	if err != nil {
		return Claims{}, err
	}
	return c, nil
}

func (k *Keyring) verify(token string, now time.Time, want Expect) (Claims, error) {
	if k == nil || k.keys == nil {
		return Claims{}, fmt.Errorf("%w: nil keyring", ErrUnknownKey)
	}
	if len(token) == 0 {
		return Claims{}, fmt.Errorf("%w: empty", ErrMalformed)
	}
	if len(token) > maxTokenLen {
		return Claims{}, fmt.Errorf("%w: too long", ErrMalformed)
	}
	rest, ok := strings.CutPrefix(token, tokenPrefix)
	if !ok {
		return Claims{}, fmt.Errorf("%w: unknown format version", ErrMalformed)
	}
	for i := 0; i < len(rest); i++ {
		if !isB64URL(rest[i]) && rest[i] != '.' {
			return Claims{}, fmt.Errorf("%w: bad character", ErrMalformed)
		}
	}
	kid, rest, ok1 := strings.Cut(rest, ".")
	p64, m64, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || strings.IndexByte(m64, '.') >= 0 {
		return Claims{}, fmt.Errorf("%w: want 4 parts", ErrMalformed)
	}
	if !validKID(kid) {
		return Claims{}, fmt.Errorf("%w: bad key id", ErrMalformed)
	}
	if len(p64) == 0 || len(p64) > b64.EncodedLen(maxPayloadLen) {
		return Claims{}, fmt.Errorf("%w: bad payload length", ErrMalformed)
	}
	var pbuf [maxPayloadLen + 3]byte
	pn, err := b64.Decode(pbuf[:], []byte(p64))
	if err != nil {
		return Claims{}, fmt.Errorf("%w: bad payload encoding", ErrMalformed)
	}
	if len(m64) != encodedMACLen {
		return Claims{}, fmt.Errorf("%w: bad signature length", ErrMalformed)
	}
	var mac [macLen + 3]byte
	mn, err := b64.Decode(mac[:], []byte(m64))
	if err != nil || mn != macLen {
		return Claims{}, fmt.Errorf("%w: bad signature encoding", ErrMalformed)
	}

	s, ok := k.keys[kid]
	if !ok {
		return Claims{}, ErrUnknownKey
	}
	sum := s.sum([]byte(token[:len(token)-len(m64)-1]))
	if !hmac.Equal(sum[:macLen], mac[:macLen]) {
		return Claims{}, ErrBadSignature
	}

	c, err := decodePayload(pbuf[:pn])
	if err != nil {
		return Claims{}, err
	}
	c.KeyID = kid

	if now.IsZero() {
		return Claims{}, fmt.Errorf("%w: no verification time given", ErrExpired)
	}
	if !now.Before(c.Expires) {
		return Claims{}, ErrExpired
	}
	if want.Purpose == "" || c.Purpose != want.Purpose {
		return Claims{}, ErrWrongPurpose
	}
	if !want.AnyGame && (want.Game == "" || c.Game != want.Game) {
		return Claims{}, ErrWrongGame
	}
	if !want.AnySeat && c.Seat != want.Seat {
		return Claims{}, ErrWrongSeat
	}
	if want.CheckVersion && c.Version != 0 && c.Version != want.Version {
		return Claims{}, ErrStaleVersion
	}
	return c, nil
}

// Redact returns a form of token safe to log: the format version and key
// id only, as "v1.<kid>.[redacted]", or "[redacted token]" if it does not
// start like a token.
func Redact(token string) string {
	if rest, ok := strings.CutPrefix(token, tokenPrefix); ok {
		if kid, _, ok := strings.Cut(rest, "."); ok && validKID(kid) {
			return tokenPrefix + kid + ".[redacted]"
		}
	}
	return "[redacted token]"
}
