// Package secret encrypts credentials at rest with AES-256-GCM.
//
// The key is 32 random bytes, given base64-encoded in the environment
// variable S2R_SECRET_KEY or stored in a key file. A sealed value is a
// versioned, base64-encoded string that also binds additional data (the
// row and field it belongs to), so a ciphertext copied into another row
// does not decrypt.
package secret

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the length in bytes of an AES-256 key.
const KeySize = 32

// EnvVar is the environment variable that carries the base64 key.
const EnvVar = "S2R_SECRET_KEY"

// LoadOrCreateKey returns the 32-byte encryption key.
//
// A non-empty envValue (the value of S2R_SECRET_KEY) wins. Otherwise the key
// is read from keyFile. When keyFile does not exist and create is true (the
// embedded default deployment), a random key is generated and written to
// keyFile with mode 0600; the write is atomic and never replaces a key file
// that another process created first. Errors name the variable or the file,
// never the key material.
func LoadOrCreateKey(envValue, keyFile string, create bool) ([]byte, error) {
	if strings.TrimSpace(envValue) != "" {
		key, err := decodeKey(envValue)
		if err != nil {
			return nil, fmt.Errorf("secret: %s: %w", EnvVar, err)
		}
		return key, nil
	}
	if keyFile == "" {
		return nil, fmt.Errorf("secret: no key: set %s or configure a key file", EnvVar)
	}
	key, err := readKeyFile(keyFile)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !create {
		return key, err
	}
	return createKeyFile(keyFile)
}

// decodeKey parses base64 text holding exactly KeySize bytes.
func decodeKey(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	key, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		key, err = base64.RawStdEncoding.DecodeString(text)
	}
	if err != nil {
		return nil, errors.New("key is not valid base64")
	}
	if len(key) != KeySize {
		return nil, fmt.Errorf("key must decode to %d bytes, got %d", KeySize, len(key))
	}
	return key, nil
}

// readKeyFile reads and decodes an existing key file.
func readKeyFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("secret: read key file %s: %w", path, err)
	}
	key, err := decodeKey(string(data))
	if err != nil {
		return nil, fmt.Errorf("secret: key file %s: %w", path, err)
	}
	return key, nil
}

// createKeyFile generates a key and publishes it at path atomically: the key
// is written and synced to a temporary file, then hard-linked into place, which
// fails instead of overwriting when another process won the race. In that case
// the winner's key is read and returned.
func createKeyFile(path string) ([]byte, error) {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("secret: generate key: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("secret: create key directory %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".s2r-key-*")
	if err != nil {
		return nil, fmt.Errorf("secret: create key file %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := writeAndSync(tmp, base64.StdEncoding.EncodeToString(key)+"\n"); err != nil {
		return nil, fmt.Errorf("secret: write key file %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKeyFile(path)
		}
		return nil, fmt.Errorf("secret: install key file %s: %w", path, err)
	}
	syncDir(dir)
	return key, nil
}

// writeAndSync restricts f to 0600, writes text, syncs and closes it.
func writeAndSync(f *os.File, text string) error {
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a new directory entry durable; failure only weakens
// durability after a crash, so it is ignored.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
