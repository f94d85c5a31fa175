package secret

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func testBox(t testing.TB, fill byte) *Box {
	t.Helper()
	b, err := NewBox(bytes.Repeat([]byte{fill}, KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSealOpenRoundTrip(t *testing.T) {
	b := testBox(t, 1)
	for _, plain := range []string{"", "hunter2", strings.Repeat("x", 4096)} {
		sealed, err := b.Seal([]byte(plain), "settings/smtp_password")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(sealed, plain) && plain != "" {
			t.Fatal("sealed value contains the plaintext")
		}
		got, err := b.Open(sealed, "settings/smtp_password")
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != plain {
			t.Fatalf("Open = %q, want %q", got, plain)
		}
	}
}

func TestSealUsesFreshNonce(t *testing.T) {
	b := testBox(t, 1)
	a, _ := b.Seal([]byte("same"), "x")
	c, _ := b.Seal([]byte("same"), "x")
	if a == c {
		t.Fatal("two seals of the same value are identical")
	}
}

func TestOpenRejects(t *testing.T) {
	b := testBox(t, 1)
	sealed, err := b.Seal([]byte("hunter2"), "row-1/password")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(sealed, sealedPrefix))
	flipped := bytes.Clone(raw)
	flipped[len(flipped)-1] ^= 0x01
	tests := []struct {
		name   string
		box    *Box
		sealed string
		aad    string
		want   error
	}{
		{name: "wrong key", box: testBox(t, 2), sealed: sealed, aad: "row-1/password", want: ErrDecrypt},
		{name: "swapped row", box: b, sealed: sealed, aad: "row-2/password", want: ErrDecrypt},
		{name: "tampered byte", box: b, sealed: sealedPrefix + base64.StdEncoding.EncodeToString(flipped), aad: "row-1/password", want: ErrDecrypt},
		{name: "truncated", box: b, sealed: sealedPrefix + base64.StdEncoding.EncodeToString(raw[:20]), aad: "row-1/password", want: ErrMalformed},
		{name: "unknown version", box: b, sealed: "v2:" + strings.TrimPrefix(sealed, sealedPrefix), aad: "row-1/password", want: ErrMalformed},
		{name: "not base64", box: b, sealed: "v1:***", aad: "row-1/password", want: ErrMalformed},
		{name: "empty", box: b, sealed: "", aad: "row-1/password", want: ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.box.Open(tc.sealed, tc.aad)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Open error = %v, want %v", err, tc.want)
			}
			if got != nil {
				t.Fatalf("Open returned data %q with an error", got)
			}
		})
	}
}

func TestNewBoxRejectsShortKey(t *testing.T) {
	if _, err := NewBox(make([]byte, 16)); err == nil {
		t.Fatal("NewBox accepted a 16-byte key")
	}
}

func FuzzOpen(f *testing.F) {
	b := testBox(f, 3)
	good, _ := b.Seal([]byte("hunter2"), "aad")
	f.Add(good, "aad")
	f.Add(good, "other")
	f.Add("v1:", "aad")
	f.Add("v1:AAAA", "")
	f.Add("", "")
	f.Add("v1:"+strings.Repeat("A", 64), "aad")
	f.Fuzz(func(t *testing.T, sealed, aad string) {
		plain, err := b.Open(sealed, aad)
		// Only "hunter2" under aad "aad" was ever sealed with this key (in
		// any fuzz worker, each with its own nonce), so nothing else may open.
		if err == nil && (aad != "aad" || string(plain) != "hunter2") {
			t.Fatalf("forged value opened: %q", plain)
		}
		if err != nil && plain != nil {
			t.Fatal("data returned with an error")
		}
	})
}
