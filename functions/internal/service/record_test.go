package service

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"testing"
)

// TestRecordKeepsLogAndKeysAsText: the log and the idempotency keys go into
// the stored JSON as text, not as base64 (issue 16), and a record written
// in the earlier layout (bytes, so base64 under "log" and "keys") still
// loads with its log and keys.
func TestRecordKeepsLogAndKeysAsText(t *testing.T) {
	log := logLines(`{"n":0,"seat":1,"action":{"type":"roll"},"at":1700000000}` + "\n")
	keys := keyLines("1 move-00001 0 3\n")
	body, err := encode(&Record{Format: RecordFormat, ID: "g1", Log: log, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(zr)
	if !bytes.Contains(raw, []byte(`move-00001`)) || !bytes.Contains(raw, []byte(`\"action\":{\"type\":\"roll\"}`)) {
		t.Fatalf("log or keys not stored as text: %s", raw)
	}
	if bytes.Contains(raw, []byte(base64.StdEncoding.EncodeToString(keys))) {
		t.Fatalf("keys stored as base64: %s", raw)
	}
	var back Record
	if err := decode(body, &back); err != nil {
		t.Fatal(err)
	}
	back.upgrade()
	if !bytes.Equal(back.Log, log) || !bytes.Equal(back.Keys, keys) {
		t.Fatalf("round trip: log %q keys %q", back.Log, back.Keys)
	}

	// The earlier layout: []byte fields under "log" and "keys".
	old, err := encode(struct {
		Format int    `json:"v"`
		ID     string `json:"id"`
		Log    []byte `json:"log"`
		Keys   []byte `json:"keys"`
	}{RecordFormat, "g1", log, keys})
	if err != nil {
		t.Fatal(err)
	}
	var up Record
	if err := decode(old, &up); err != nil {
		t.Fatal(err)
	}
	up.upgrade()
	if !bytes.Equal(up.Log, log) || !bytes.Equal(up.Keys, keys) || up.OldLog != nil || up.OldKeys != nil {
		t.Fatalf("earlier layout: log %q keys %q", up.Log, up.Keys)
	}
	if k, ok := up.findKey(1, "move-00001"); !ok || k.Version != 3 {
		t.Fatalf("earlier layout's key not found: %+v %v", k, ok)
	}
}
