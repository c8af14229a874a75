package linksign

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
)

// MinKeyLen is the shortest key a Keyring accepts, in bytes.
const MinKeyLen = 32

// Keyring holds the signing keys by id, one of them current. Sign uses the
// current key; Verify accepts a token signed by any key in the ring, so keys
// are rotated by adding a new current key and removing the old one once the
// tokens it signed have expired.
//
// A Keyring is immutable and safe for concurrent use. Printing it (fmt, any
// verb), logging it (log/slog) or marshalling it to JSON shows the key ids
// only, never key material.
type Keyring struct {
	current string
	ids     []string // sorted
	keys    map[string]*signer
}

// signer computes HMAC-SHA256 with one key, reusing keyed hash states.
type signer struct {
	pool sync.Pool // of hash.Hash
}

func newSigner(key []byte) *signer {
	key = slices.Clone(key)
	s := &signer{}
	s.pool.New = func() any { return hmac.New(sha256.New, key) }
	return s
}

func (s *signer) sum(msg []byte) [sha256.Size]byte {
	h := s.pool.Get().(hash.Hash)
	h.Reset()
	h.Write(msg)
	var out [sha256.Size]byte
	h.Sum(out[:0])
	s.pool.Put(h)
	return out
}

// NewKeyring returns a keyring holding keys (by id) that signs with the key
// named current. Key ids are 1 to 32 characters from [A-Za-z0-9_-]; keys are
// at least MinKeyLen bytes. The keys are copied.
func NewKeyring(current string, keys map[string][]byte) (*Keyring, error) {
	if len(keys) == 0 {
		return nil, fmt.Errorf("linksign: keyring has no keys")
	}
	k := &Keyring{current: current, keys: make(map[string]*signer, len(keys))}
	for id, key := range keys {
		if !validKID(id) {
			// The id is not shown: an invalid one may be misplaced key material.
			return nil, fmt.Errorf("linksign: invalid key id (want 1-%d characters from [A-Za-z0-9_-])", maxKIDLen)
		}
		if len(key) < MinKeyLen {
			return nil, fmt.Errorf("linksign: key %s is %d bytes, want at least %d", id, len(key), MinKeyLen)
		}
		k.ids = append(k.ids, id)
		k.keys[id] = newSigner(key)
	}
	slices.Sort(k.ids)
	if _, ok := k.keys[current]; !ok {
		if !validKID(current) {
			return nil, fmt.Errorf("linksign: invalid current key id")
		}
		return nil, fmt.Errorf("linksign: current key %s is not in the keyring", current)
	}
	return k, nil
}

// Current returns the id of the key Sign uses.
func (k *Keyring) Current() string { return k.current }

// KeyIDs returns the ids of all keys in the ring, sorted.
func (k *Keyring) KeyIDs() []string { return slices.Clone(k.ids) }

// String describes the keyring by its key ids; key material is never shown.
// (Value receiver, so a copied Keyring redacts too.)
func (k Keyring) String() string {
	return "linksign.Keyring{current=" + k.current + " keys=[" + strings.Join(k.ids, " ") + "] secrets=redacted}"
}

// GoString is String, for %#v.
func (k Keyring) GoString() string { return k.String() }

// Format implements fmt.Formatter so that every verb (%d and %x included)
// prints String and never the fields.
func (k Keyring) Format(f fmt.State, verb rune) { io.WriteString(f, k.String()) }

// LogValue implements slog.LogValuer: key ids only.
func (k Keyring) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("current", k.current),
		slog.String("keys", strings.Join(k.ids, ",")),
	)
}

// MarshalJSON hides the keys from encoding/json: key ids only.
func (k Keyring) MarshalJSON() ([]byte, error) {
	ids := k.ids
	if ids == nil {
		ids = []string{}
	}
	return json.Marshal(struct {
		Current string   `json:"current"`
		Keys    []string `json:"key_ids"`
	}{k.current, ids})
}
