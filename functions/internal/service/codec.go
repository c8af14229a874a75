package service

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// A game item's body, and a log chunk's, is JSON compressed with deflate
// against a preset dictionary: two records of mid-game, one of each game
// registered when it was made (recorddict1.json: a simulated 6-seat
// 20-lap game of each, their log cut to fit, the seed, keys and kind left
// out). A record of 20 KB of JSON is mostly the same field names, actions
// and events as every other; with the dictionary they cost a few bits
// each from the first, where plain gzip paid for each once per item. On
// the simulator's games (20 laps, 6 seats, every item written) the body
// shrinks by a quarter to a third (2.5 → 1.7 KB and 3.1 → 2.2 KB on
// average for the two games, 3.5 → 2.5 KB and 3.8 → 2.8 KB at most): one
// write unit less for most writes of the game item, and for many chunks
// (issue 28). A game added later compresses as well in its field names
// and less well in its own actions, until a dictionary that knows them.
//
// The body starts with bodyDict1: a dictionary, once bodies are written
// with it, is never changed (a better one is another file under another
// prefix, and the old one stays to read what it wrote). Bodies written
// before are gzip (they start with gzip's magic bytes) and read as they
// were.
var (
	//go:embed recorddict1.json
	dict1 []byte
	// bodyDict1 begins a body compressed against dict1: no gzip stream
	// begins with it.
	bodyDict1 = []byte("d1")
	gzipMagic = []byte{0x1f, 0x8b}
)

// flateWriters are reused: a new flate writer allocates over half a
// megabyte, more than the rest of a move. The best compression: on a
// game item it is 80–100 B less than the default level, for a fraction
// of a millisecond.
var flateWriters = sync.Pool{New: func() any {
	zw, err := flate.NewWriterDict(io.Discard, flate.BestCompression, dict1)
	if err != nil {
		panic(err) // only for a bad level
	}
	return zw
}}

// encode writes v as JSON compressed against the dictionary: game items
// stay far below DynamoDB's 400 KB however long the recent log, and cost
// fewer write units.
func encode(v any) ([]byte, error) {
	buf := bytes.NewBuffer(append(make([]byte, 0, 4096), bodyDict1...))
	zw := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(zw)
	zw.Reset(buf)
	if err := json.NewEncoder(zw).Encode(v); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return buf.Bytes(), nil
}

// decode reads what encode wrote, or gzip as bodies were before.
func decode(b []byte, v any) error {
	data, err := RecordJSON(b)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}

// RecordJSON is the JSON a stored body (a game item's or a chunk's)
// holds, whichever way it was compressed: for tools and tests that read
// or rewrite the stored record.
func RecordJSON(body []byte) ([]byte, error) {
	var zr io.ReadCloser
	switch {
	case bytes.HasPrefix(body, bodyDict1):
		zr = flate.NewReaderDict(bytes.NewReader(body[len(bodyDict1):]), dict1)
	case bytes.HasPrefix(body, gzipMagic):
		gz, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("decode: %w", err)
		}
		zr = gz
	default:
		return nil, errors.New("decode: a body neither of the dictionary's nor gzip")
	}
	defer zr.Close()
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return data, nil
}

// RecordBody compresses a record's JSON as the service stores it today
// (RecordJSON reads it back).
func RecordBody(js []byte) ([]byte, error) {
	return encode(json.RawMessage(js))
}
