package service

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"

	"github.com/pbmgames/pbm/engine"
)

// RecordFormat is the version of the stored game body.
const RecordFormat = 1

// Game statuses.
const (
	StatusInvited = "invited" // waiting for the seats to accept
	StatusPlaying = "playing"
	StatusOver    = "over"
)

// Person is someone mailed about a game.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Lang  string `json:"lang"`
}

// SeatInfo is an invited player. Index in Record.Seats is the invitation
// number that tokens carry; Engine is the seat in the engine once the game
// has started (−1 before, or when they did not join).
type SeatInfo struct {
	Person
	Accepted bool `json:"accepted,omitempty"`
	Engine   int  `json:"engine"`
}

// Entry is one accepted command with what it caused.
type Entry struct {
	N      int            `json:"n"` // 0-based position in the whole log
	Seat   int            `json:"seat"`
	Action engine.Action  `json:"action"`
	At     int64          `json:"at"`
	Key    string         `json:"key,omitempty"`
	Events []engine.Event `json:"events,omitempty"`
}

// Record is the whole stored game: one item, one conditional write a move
// (SPEC §3). The engine state is a cache of replaying Seed and the log.
type Record struct {
	Format    int             `json:"v"`
	ID        string          `json:"id"`
	Kind      string          `json:"kind"`
	Options   json.RawMessage `json:"options,omitempty"`
	Seed      []byte          `json:"seed"` // secret: never shown to a client
	Status    string          `json:"status"`
	Organiser Person          `json:"organiser"`
	Seats     []SeatInfo      `json:"seats"`
	Created   int64           `json:"created"`
	Updated   int64           `json:"updated"`
	State     json.RawMessage `json:"state,omitempty"`
	// Moves counts every command ever applied; Log holds the newest ones,
	// from Moves−len(Log); Chunks older chunk items hold the rest.
	Moves  int     `json:"moves"`
	Chunks int     `json:"chunks"`
	Log    []Entry `json:"log,omitempty"`
	// Keys remembers recent idempotency keys per seat and where they led.
	Keys []Idem `json:"keys,omitempty"`
	// Outbox holds mail decided by a commit and not yet sent.
	Outbox []Mail `json:"outbox,omitempty"`
}

// Idem is a remembered idempotency key: seat's command that became log
// entry N, committed as game version Version.
type Idem struct {
	Seat    int    `json:"seat"`
	Key     string `json:"key"`
	N       int    `json:"n"`
	Version int64  `json:"ver"`
}

// Mail is a notification a commit decided (sent after it, SPEC §3).
type Mail struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Seat  int    `json:"seat"` // invitation index; −1 for the organiser
	Moves int    `json:"moves"`
}

// encode writes a record as gzip-compressed JSON: game items stay far below
// DynamoDB's 400 KB however long the recent log.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err := json.NewEncoder(zw).Encode(v); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return buf.Bytes(), nil
}

// decode reads what encode wrote.
func decode(b []byte, v any) error {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	defer zr.Close()
	data, err := io.ReadAll(zr)
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}

// engineSeat maps an invitation index to the engine's seat (−1 if none).
func (r *Record) engineSeat(invite int) int {
	if invite < 0 || invite >= len(r.Seats) {
		return -1
	}
	return r.Seats[invite].Engine
}

// inviteOf maps an engine seat back to its invitation index.
func (r *Record) inviteOf(seat int) int {
	for i, s := range r.Seats {
		if s.Engine == seat && s.Accepted {
			return i
		}
	}
	return -1
}

// findKey looks up a remembered idempotency key.
func (r *Record) findKey(seat int, key string) (Idem, bool) {
	for _, k := range r.Keys {
		if k.Seat == seat && k.Key == key {
			return k, true
		}
	}
	return Idem{}, false
}
