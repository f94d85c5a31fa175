package console

import (
	"strings"
	"testing"
)

// FuzzRequestHeaders feeds arbitrary If-None-Match and Accept-Encoding
// values to their parsers: no panic, and a match only for a listed tag.
func FuzzRequestHeaders(f *testing.F) {
	f.Add(`"abc"`, "gzip")
	f.Add(`W/"abc", "def"`, "br;q=1, gzip;q=0")
	f.Add(`*`, "GZIP ; q=0.5")
	f.Add(``, ",,;")
	f.Fuzz(func(t *testing.T, inm, ae string) {
		const etag = `"abc"`
		if etagMatch(inm, etag) && !strings.Contains(inm, etag) && !strings.Contains(inm, "*") {
			t.Fatalf("etag matched %q", inm)
		}
		if acceptsGzip(ae) && !strings.Contains(strings.ToLower(ae), "gzip") {
			t.Fatalf("gzip accepted from %q", ae)
		}
	})
}
