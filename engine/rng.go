package engine

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// RNG is the game's random generator (P-1). It lives in the game state and
// is copied with it, so applying an action to a copy never disturbs the
// original, and a game replays exactly from its 32-byte seed.
type RNG struct {
	c rand.ChaCha8
}

// NewRNG seeds a generator.
func NewRNG(seed [32]byte) RNG {
	var r RNG
	r.c.Seed(seed)
	return r
}

// IntN returns a uniform integer in [0, n). n must be positive.
func (r *RNG) IntN(n int) int {
	// Lemire's multiply-shift with rejection: unbiased, and it consumes a
	// fixed stream for a given n so replays stay exact.
	bound := uint64(n)
	for {
		hi, lo := bits.Mul64(r.c.Uint64(), bound)
		if lo >= bound || lo >= -bound%bound {
			return int(hi)
		}
	}
}

// Die returns a roll of a six-sided die.
func (r *RNG) Die() int { return r.IntN(6) + 1 }

// MarshalJSON stores the generator's exact position.
func (r RNG) MarshalJSON() ([]byte, error) {
	b, err := r.c.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("marshal rng: %w", err)
	}
	return json.Marshal(b)
}

// UnmarshalJSON restores a generator stored by MarshalJSON.
func (r *RNG) UnmarshalJSON(data []byte) error {
	var b []byte
	if err := json.Unmarshal(data, &b); err != nil {
		return fmt.Errorf("unmarshal rng: %w", err)
	}
	if err := r.c.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("unmarshal rng: %w", err)
	}
	return nil
}
