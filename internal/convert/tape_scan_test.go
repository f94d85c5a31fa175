package convert

import (
	"slices"
	"testing"
)

var tapeSeeds = []string{
	`{"a":1,"b":[true,false,null],"c":{"d":"x\"y\\n"}}`,
	` [ ] `, `{}`, `"s"`, `-0.5e+10`, `0`, `[1,2,[3,[4]]]`,
	`{"é":"ü€𝄞"}`, `{"a":"\u00e9"}`, `{"a":1,}`, `[1 2]`, `01`, `1.`, `.5`, `-`,
	`{"a" 1}`, `{"a":tru}`, `nul`, "\"\x01\"", "\"\xff\"", "\xef\xbb\xbf{}", `{"a":1}x`,
	`{"a":[}`, `[`, `{"a":{"b":{"c":[[]]}}}`, `"\/\b\f\r\t"`, `"\x"`, `1e5`, `1E-5`, `1e`,
}

// FuzzTapeScan: whatever scan accepts, the jsontext decoder accepts too,
// with the same tape.
func FuzzTapeScan(f *testing.F) {
	for _, s := range tapeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkTapeScan(t, in)
	})
}

func checkTapeScan(t *testing.T, in []byte) {
	t.Helper()
	var fast, slow tape
	if !fast.scan(in) {
		return
	}
	slow.dec = tapePool.New().(*tape).dec
	if err := slow.decode(in, true); err != nil {
		t.Fatalf("scan accepted %q, the decoder refused it: %v", in, err)
	}
	if !slices.Equal(fast.toks, slow.toks) {
		t.Fatalf("%q: scan tape %v, decoder tape %v", in, fast.toks, slow.toks)
	}
}

func TestTapeScan(t *testing.T) {
	accepted := 0
	for _, s := range tapeSeeds {
		var tp tape
		if tp.scan([]byte(s)) {
			accepted++
		}
		checkTapeScan(t, []byte(s))
	}
	if accepted < 12 {
		t.Errorf("scan accepted only %d of the plain documents", accepted)
	}
}
