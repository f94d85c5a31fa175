package secret

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestLoadOrCreateKeyFromEnv(t *testing.T) {
	want := bytes.Repeat([]byte{7}, KeySize)
	got, err := LoadOrCreateKey(" "+base64.StdEncoding.EncodeToString(want)+"\n", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("key = %x, want %x", got, want)
	}
}

func TestLoadOrCreateKeyErrors(t *testing.T) {
	dir := t.TempDir()
	short := base64.StdEncoding.EncodeToString(make([]byte, 16))
	shortFile := filepath.Join(dir, "short.key")
	if err := os.WriteFile(shortFile, []byte(short), 0o600); err != nil {
		t.Fatal(err)
	}
	garbled := "!!not-base64-secret-material!!"
	garbledFile := filepath.Join(dir, "garbled.key")
	if err := os.WriteFile(garbledFile, []byte(garbled), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, env, file string
		create          bool
		wantIn          string
		secret          string
	}{
		{name: "env wrong length", env: short, wantIn: "S2R_SECRET_KEY: key must decode to 32 bytes, got 16", secret: short},
		{name: "env not base64", env: garbled, wantIn: "S2R_SECRET_KEY: key is not valid base64", secret: garbled},
		{name: "file wrong length", file: shortFile, wantIn: shortFile + ": key must decode to 32 bytes", secret: short},
		{name: "file not base64", file: garbledFile, wantIn: garbledFile + ": key is not valid base64", secret: garbled},
		{name: "file missing, no create", file: filepath.Join(dir, "absent.key"), wantIn: "absent.key"},
		{name: "nothing configured", wantIn: "set S2R_SECRET_KEY"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadOrCreateKey(tc.env, tc.file, tc.create)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.wantIn) {
				t.Errorf("error %q does not contain %q", err, tc.wantIn)
			}
			if tc.secret != "" && strings.Contains(err.Error(), tc.secret) {
				t.Errorf("error %q leaks the key material", err)
			}
		})
	}
}

func TestLoadOrCreateKeyCreatesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "secret.key")
	first, err := LoadOrCreateKey("", path, true)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("key file mode = %o, want 600", perm)
	}
	second, err := LoadOrCreateKey("", path, true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Error("second load returned a different key")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".s2r-key-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

func TestLoadOrCreateKeyConcurrentCreatorsAgree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secret.key")
	const n = 8
	keys := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { keys[i], errs[i] = LoadOrCreateKey("", path, true) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(keys[i], keys[0]) {
			t.Fatalf("creator %d got a different key than creator 0", i)
		}
	}
}
