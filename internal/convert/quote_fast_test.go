package convert

import "testing"

func TestAppendQuotedBytesAgrees(t *testing.T) {
	special := []byte{'"', '\\', 0, 0x1f, '\n', '\t', 0x20, 0x7f, 0x80, 0xff, 'a', 0x5b, 0x5d, 0x21, 0x23}
	for n := 0; n < 40; n++ {
		for k, c := range special {
			s := make([]byte, n)
			for i := range s {
				s[i] = byte('a' + (i+k)%26)
			}
			if n > 0 {
				s[(n*7+k)%n] = c
			}
			if got, want := appendQuotedBytes([]byte("x"), s), appendQuoted([]byte("x"), s); string(got) != string(want) {
				t.Fatalf("%q: got %q, want %q", s, got, want)
			}
		}
	}
}
