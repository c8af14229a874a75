package linksign

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// keyFile is the JSON form of a keyring, for the local key file and for the
// SecureString read from SSM Parameter Store:
//
//	{"current":"k1","keys":{"k1":"<base64 of 32 or more bytes>"}}
type keyFile struct {
	Current string            `json:"current"`
	Keys    map[string]string `json:"keys"`
}

// maxKeyFileLen bounds what ParseKeyring and LoadKeyFile accept.
const maxKeyFileLen = 1 << 20

// ParseKeyring parses the keyring JSON
//
//	{"current":"k1","keys":{"k1":"<base64 of 32 or more bytes>", ...}}
//
// as read from the local key file or from SSM Parameter Store by the
// caller. Keys may be in standard or URL-safe base64, padded
// or not. Unknown fields are rejected. Error messages never quote the data.
func ParseKeyring(data []byte) (*Keyring, error) {
	if len(data) > maxKeyFileLen {
		return nil, errors.New("linksign: keyring JSON too large")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var kf keyFile
	if err := dec.Decode(&kf); err != nil {
		// encoding/json errors can quote parts of the input (a number
		// literal, a field name): report only where the problem is.
		return nil, fmt.Errorf("linksign: keyring JSON is not of the form {\"current\":id,\"keys\":{id:base64}} (near byte %d)", dec.InputOffset())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("linksign: keyring JSON has data after the object")
	}
	if kf.Current == "" {
		return nil, errors.New("linksign: keyring JSON has no \"current\" key id")
	}
	keys := make(map[string][]byte, len(kf.Keys))
	for id, s := range kf.Keys {
		if !validKID(id) {
			return nil, fmt.Errorf("linksign: invalid key id (want 1-%d characters from [A-Za-z0-9_-])", maxKIDLen)
		}
		key, ok := decodeKey(s)
		if !ok {
			return nil, fmt.Errorf("linksign: key %s is not valid base64", id)
		}
		keys[id] = key
	}
	return NewKeyring(kf.Current, keys)
}

// decodeKey decodes standard or URL-safe base64, padded or not.
func decodeKey(s string) ([]byte, bool) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.Strict().DecodeString(s); err == nil {
			return b, true
		}
	}
	return nil, false
}

// LoadKeyFile reads a keyring from the JSON file at path (see ParseKeyring).
// A missing file gives an error that matches fs.ErrNotExist.
func LoadKeyFile(path string) (*Keyring, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("linksign: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFileLen+1))
	if err != nil {
		return nil, fmt.Errorf("linksign: %w", err)
	}
	k, err := ParseKeyring(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return k, nil
}

// EnsureKeyFile loads the keyring from path, first creating the file (and
// its directory, mode 0700) with one random 32-byte key "k1" from
// crypto/rand, mode 0600, if it does not exist. Concurrent callers end up
// with the same key: the file appears atomically, complete, or not at all.
func EnsureKeyFile(path string) (*Keyring, error) {
	k, err := LoadKeyFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}

	key := make([]byte, MinKeyLen)
	rand.Read(key) // never fails (crypto/rand.Read crashes the program instead)
	data, err := json.MarshalIndent(keyFile{
		Current: "k1",
		Keys:    map[string]string{"k1": base64.StdEncoding.EncodeToString(key)},
	}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("linksign: %w", err)
	}
	data = append(data, '\n')

	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("linksign: %w", err)
	}
	if err := createExclusive(path, data); err != nil {
		if errors.Is(err, fs.ErrExist) { // someone else created it first
			return LoadKeyFile(path)
		}
		return nil, fmt.Errorf("linksign: creating key file: %w", err)
	}
	return LoadKeyFile(path)
}

// createExclusive writes data to a new file at path with mode 0600, failing
// with fs.ErrExist if path exists. It writes a temporary file in the same
// directory and hard-links it into place, so readers never see a partial
// file; where hard links are not supported it falls back to O_EXCL.
func createExclusive(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".linksign-*.tmp") // mode 0600
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
