package service

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
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
	raw, err := RecordJSON(body)
	if err != nil {
		t.Fatal(err)
	}
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

// TestBodiesAgainstTheDictionary (issue 28): a body is written against
// the preset dictionary, smaller than gzip wrote it for the same record,
// and a body gzip wrote (every game stored before) still reads.
func TestBodiesAgainstTheDictionary(t *testing.T) {
	var entries bytes.Buffer
	for n := range 40 {
		fmt.Fprintf(&entries, `{"n":%d,"seat":%d,"action":{"type":"roll"},"at":1799524447,"events":[{"type":"roll","seat":%d,"other":%d},{"type":"move","seat":%d,"cell":%d}],"by":"order"}`+"\n",
			n, n%6, n%6, n%5+1, n%6, (n*7)%80)
	}
	rec := &Record{Format: RecordFormat, ID: "g1", Kind: "western", Status: StatusPlaying, Moves: 40, Log: logLines(entries.Bytes()),
		Seats: []SeatInfo{{Person: Person{Name: "Anna", Email: "anna@pbm.test", Lang: "ru"}, Accepted: true}}}
	body, err := encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(body, bodyDict1) {
		t.Fatalf("a body starts %q, want %q", body[:2], bodyDict1)
	}
	js, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var old bytes.Buffer
	zw := gzip.NewWriter(&old)
	zw.Write(js)
	zw.Close()
	if len(body) >= old.Len() {
		t.Fatalf("%d B against the dictionary, %d B with gzip: want fewer", len(body), old.Len())
	}
	t.Logf("%d B of JSON: %d B against the dictionary, %d B with gzip", len(js), len(body), old.Len())
	for name, b := range map[string][]byte{"dictionary": body, "gzip": old.Bytes()} {
		var back Record
		if err := decode(b, &back); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if back.ID != "g1" || !bytes.Equal(back.Log, rec.Log) || back.Seats[0].Email != "anna@pbm.test" {
			t.Fatalf("%s: read back %+v", name, back)
		}
	}
	if err := decode([]byte(`{"id":"g1"}`), new(Record)); err == nil {
		t.Fatal("a body in no known form was read")
	}
}

// TestDictionaryPinned: the dictionary bodies are written against never
// changes (codec.go): a body written with it reads only with it. A better
// dictionary is a new file under a new prefix, beside this one.
func TestDictionaryPinned(t *testing.T) {
	const want = "f2cc4b5682de26fe4b467844ddb87b6e2463880437026b3fa565b0cd4b2c0ffa"
	if got := fmt.Sprintf("%x", sha256.Sum256(dict1)); got != want {
		t.Fatalf("recorddict1.json changed: sha256 %s, want %s; bodies written with it would no longer read", got, want)
	}
}
