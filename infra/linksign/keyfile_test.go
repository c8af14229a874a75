package linksign

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestParseKeyring(t *testing.T) {
	std := base64.StdEncoding.EncodeToString
	raw := base64.RawURLEncoding.EncodeToString
	good := `{"current":"k2","keys":{"k1":"` + std(testKey1) + `","k2":"` + raw(testKey2) + `"}}`
	k, err := ParseKeyring([]byte(good))
	if err != nil {
		t.Fatalf("ParseKeyring: %v", err)
	}
	if k.Current() != "k2" || strings.Join(k.KeyIDs(), ",") != "k1,k2" {
		t.Fatalf("keyring = %v", k)
	}
	// The parsed keys are the real ones: a token from a keyring built
	// directly verifies.
	direct := mustKeyring(t, "k1", map[string][]byte{"k1": testKey1})
	if _, err := k.Verify(mustSign(t, direct, seatClaims()), testNow, seatExpect(seatClaims())); err != nil {
		t.Fatalf("token from the same key: %v", err)
	}

	bad := map[string]string{
		"empty":                  ``,
		"not json":               `current=k1`,
		"array":                  `[]`,
		"no current":             `{"keys":{"k1":"` + std(testKey1) + `"}}`,
		"no keys":                `{"current":"k1"}`,
		"empty keys":             `{"current":"k1","keys":{}}`,
		"current absent":         `{"current":"k9","keys":{"k1":"` + std(testKey1) + `"}}`,
		"short key":              `{"current":"k1","keys":{"k1":"` + std(testKey1[:31]) + `"}}`,
		"bad base64":             `{"current":"k1","keys":{"k1":"` + string(testKey1) + `!"}}`,
		"key as number":          `{"current":"k1","keys":{"k1":1234567890123456789012345678901234567890}}`,
		"unknown field":          `{"current":"k1","keys":{"k1":"` + std(testKey1) + `"},"` + string(testKey2) + `":1}`,
		"bad key id":             `{"current":"k1","keys":{"k1":"` + std(testKey1) + `","` + std(testKey2) + `":"` + std(testKey2) + `"}}`,
		"trailing data":          `{"current":"k1","keys":{"k1":"` + std(testKey1) + `"}} {"x":1}`,
		"trailing junk":          `{"current":"k1","keys":{"k1":"` + std(testKey1) + `"}}` + string(testKey2),
		"truncated":              good[:len(good)-2],
		"secret in syntax error": `{"current":"k1","keys":{"k1":"` + std(testKey1) + `" ` + string(testKey2) + `}}`,
	}
	for name, data := range bad {
		t.Run(name, func(t *testing.T) {
			k, err := ParseKeyring([]byte(data))
			if err == nil || k != nil {
				t.Fatalf("ParseKeyring = %v, %v; want an error", k, err)
			}
			checkNoLeak(t, "error", err.Error(), "")
			if strings.Contains(err.Error(), "1234567890") {
				t.Errorf("error quotes the input: %v", err)
			}
		})
	}
}

func TestEnsureAndLoadKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "keys.json")

	if _, err := LoadKeyFile(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("LoadKeyFile of a missing file: %v, want fs.ErrNotExist", err)
	}
	k1, err := EnsureKeyFile(path)
	if err != nil {
		t.Fatalf("EnsureKeyFile: %v", err)
	}
	if k1.Current() != "k1" {
		t.Errorf("current = %q", k1.Current())
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("key file mode = %v, want 0600", st.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseKeyring(data); err != nil {
		t.Fatalf("file does not parse: %v\n%s", err, data)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("directory holds %d entries, want just the key file", len(ents))
	}

	// A second call (a restart) loads the same key, does not replace it.
	tok := mustSign(t, k1, seatClaims())
	k2, err := EnsureKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k2.Verify(tok, testNow, seatExpect(seatClaims())); err != nil {
		t.Fatalf("token after reload: %v", err)
	}
	k3, err := LoadKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k3.Verify(tok, testNow, seatExpect(seatClaims())); err != nil {
		t.Fatalf("token after LoadKeyFile: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(data) {
		t.Errorf("EnsureKeyFile rewrote an existing file")
	}

	// A bad existing file is an error, not replaced.
	badPath := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(badPath, []byte(`{"current":"k1","keys":{"k1":"c2hvcnQ="}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := EnsureKeyFile(badPath); err == nil {
		t.Fatal("EnsureKeyFile accepted a bad file")
	}
	if _, err := LoadKeyFile(badPath); err == nil {
		t.Fatal("LoadKeyFile accepted a bad file")
	}
}

func TestEnsureKeyFileConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	const n = 16
	toks := make([]string, n)
	errs := make([]error, n)
	rings := make([]*Keyring, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			k, err := EnsureKeyFile(path)
			rings[i], errs[i] = k, err
			if err == nil {
				toks[i], errs[i] = k.Sign(seatClaims())
			}
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if toks[i] != toks[0] {
			t.Fatalf("callers %d and 0 got different keys", i)
		}
	}
}
