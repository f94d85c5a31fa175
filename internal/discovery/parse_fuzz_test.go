package discovery

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
)

// testRedactor masks by the default names, as ingest does.
var testRedactor = redact.New(model.DefaultDebugRedactNames(), []string{"X-Api-Key"})

// FuzzReadBatch feeds arbitrary bodies (plain, gzipped, or claimed to be
// gzip) to the batch reader with the real validation: it must never
// panic, must answer only 400 S2R-ING-0400 or 413 S2R-ING-0413, and what
// it accepts must hold the stored invariants. Seed corpus:
// testdata/fuzz/FuzzReadBatch.
func FuzzReadBatch(f *testing.F) {
	f.Add([]byte(`[{"eventId":"0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b","globalTransactionId":"1b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b","stage":"client_response","timestamp":"2026-01-02T15:04:05Z","uri":"/a/1?x"}]`), uint8(0), false)
	f.Add([]byte(`{"eventId":"0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b","timestamp":"2026-01-02T15:04:05.5+02:00","serviceUri":"/orders/{id}","vendor":"kong"}`+"\n"), uint8(1), true)
	f.Add([]byte("[1,2"), uint8(2), false)
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8, generic bool) {
		enc := ""
		switch mode % 3 {
		case 1:
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(data)
			zw.Close()
			data, enc = buf.Bytes(), "gzip"
		case 2:
			enc = "gzip"
		}
		b, err := openBody(bytes.NewReader(data), enc, 1)
		if err == nil {
			if generic {
				var n int
				n, err = readBatch(b, func(i int, in *GenericLogIn) error {
					g, fe := in.toStore(now, "f5", testRedactor)
					if fe != nil {
						return eventError(i, fe.field, fe.reason)
					}
					checkStored(t, g.RawURI, g.RequestPayload, g.ResponsePayload)
					return nil
				})
				if n > MaxBatchEvents {
					t.Fatalf("%d events accepted", n)
				}
			} else {
				_, err = readBatch(b, func(i int, in *LBEventIn) error {
					e, fe := in.toStore(now, testRedactor)
					if fe != nil {
						return eventError(i, fe.field, fe.reason)
					}
					checkStored(t, e.URI, e.Payload, e.Headers)
					if e.Failure && e.Stage != "client_response" {
						t.Fatalf("failure on stage %s", e.Stage)
					}
					return nil
				})
			}
		}
		if err != nil {
			e, ok := apierr.As(err)
			if !ok || (e.Code != apierr.IngBadRequest && e.Code != apierr.IngTooLarge) {
				t.Fatalf("unexpected error %v", err)
			}
		}
	})
}

// checkStored checks what ingest would store: valid UTF-8 without NUL,
// bounded payloads, a URI that normalises to a bounded path.
func checkStored(t *testing.T, uri string, texts ...string) {
	t.Helper()
	for _, s := range append(texts, uri) {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 || len(s) > MaxPayloadBytes {
			t.Fatalf("unstorable text %q", s)
		}
	}
	n := NormalizeURI(uri)
	if !strings.HasPrefix(n, "/") || len(n) > MaxServiceURILen || NormalizeURI(n) != n {
		t.Fatalf("NormalizeURI(%q) = %q", uri, n)
	}
}

// FuzzNormalizeURI checks the normalisation's invariants on any input:
// a path starting with "/", bounded, printable ASCII, idempotent.
// Seed corpus: testdata/fuzz/FuzzNormalizeURI.
func FuzzNormalizeURI(f *testing.F) {
	for _, s := range []string{"/a/1", "http://h/x?y", "/caf%c3%a9/../{id}", "/%zz;p=1//x/.", "/eyJhbGciOiJIUzI1NiJ9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeURI(s)
		if !strings.HasPrefix(n, "/") || len(n) > MaxServiceURILen {
			t.Fatalf("NormalizeURI(%q) = %q", s, n)
		}
		for i := 0; i < len(n); i++ {
			if n[i] <= ' ' || n[i] >= 0x7f {
				t.Fatalf("NormalizeURI(%q) = %q: byte %#x", s, n, n[i])
			}
		}
		if again := NormalizeURI(n); again != n {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, n, again)
		}
	})
}
