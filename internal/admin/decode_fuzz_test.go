package admin

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
)

// FuzzDecodeJSON sends arbitrary bodies through the strict decoder used by
// every admin endpoint: it must never panic and must refuse with one of the
// documented codes.
func FuzzDecodeJSON(f *testing.F) {
	for _, seed := range []string{`{}`, `[]`, `{"a":1}`, `[{"group":"g","role":"admin"}]`, `{"a":`, `{"a":1,"a":2}`, "\xff", `null`, ` `} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, dst := range []any{new(map[string]jsontext.Value), new([]roleBindingInput), new(permissionBindingInput)} {
			r := httptest.NewRequest("POST", "/", strings.NewReader(string(body)))
			err := adminapi.DecodeJSON(httptest.NewRecorder(), r, dst)
			if err == nil {
				continue
			}
			switch code := apierr.CodeOf(err); code {
			case apierr.ValBadRequest, apierr.AdmPayloadTooLarge:
			default:
				t.Fatalf("code %q for %q", code, body)
			}
		}
	})
}

// FuzzQueryParams sends arbitrary query strings through the page and time
// window parsers.
func FuzzQueryParams(f *testing.F) {
	for _, seed := range []string{"", "page=2&pageSize=10", "window=7d", "start=2026-01-01&end=2026-01-02", "since=2026-01-01T00:00:00+02:00", "page=-1", "pageSize=99999999999999999999"} {
		f.Add(seed)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		if p, err := adminapi.ParsePage(q); err == nil && (p.Page < 1 || p.PageSize < 1 || p.PageSize > 200) {
			t.Fatalf("accepted page %+v", p)
		} else if err != nil && apierr.CodeOf(err) != apierr.ValBadRequest {
			t.Fatalf("page error %v", err)
		}
		tr, err := adminapi.ParseTimeRange(q, now)
		if err == nil && !tr.Since.IsZero() && !tr.Until.IsZero() && tr.Since.After(tr.Until) {
			t.Fatalf("accepted inverted range %+v", tr)
		}
		if err != nil && apierr.CodeOf(err) != apierr.ValBadRequest {
			t.Fatalf("time error %v", err)
		}
	})
}

var _ http.Handler = (*server)(nil)
