package query

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// FuzzPreviewNaive feeds arbitrary bodies to the preview's naive
// conversion: it must answer JSON or a 400 naming the body, never panic.
func FuzzPreviewNaive(f *testing.F) {
	for _, s := range []string{quoteResponse11, quoteResponse12, quoteFault, `<a x="1"><b>2</b><b>3</b></a>`,
		`<?xml version="1.0"?><r/>`, `<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>`, `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		out, _, err := convertPreview(body, xmlstream.Limits{MaxSize: 1 << 20}, nil)
		if err != nil {
			var e *apierr.Error
			if !errors.As(err, &e) || e.Code != apierr.ValBadRequest {
				t.Fatalf("error %v is not S2R-VAL-0400", err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON %q", out)
		}
	})
}

// FuzzQueryParams feeds arbitrary query strings to the parameter readers:
// each answers a value or a 400 S2R-VAL-0400 naming a parameter.
func FuzzQueryParams(f *testing.F) {
	for _, s := range []string{"window=1h&start=2026-01-01T00:00:00Z", "environments=a,b&environments=c&serviceKeys=%FF",
		"source=runtime&direction=publish&onboardedOnly=true", "start=2026-01-02&end=2026-01-01", "trafficThreshold=1e9&availabilityTarget=NaN",
		"statusClass=5xx&limit=0", "source=lb&vendor=F5,kong&instanceId=0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b&page=2&pageSize=200",
		"resultCode=reset&serviceUri=%25&customer=10.&frontVirtualServer=vs&backVirtualServer=pool&window=24h",
		"id=0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b&source=generic", "id=42&source=generic&includeCloud=false"} {
		f.Add(s)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	api := &API{now: func() time.Time { return now }}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		check := func(err error) {
			if err == nil {
				return
			}
			var e *apierr.Error
			if !errors.As(err, &e) || e.Code != apierr.ValBadRequest || e.Details["field"] == nil {
				t.Fatalf("%q: error %v does not name a parameter", raw, err)
			}
		}
		tr, err := parseWindow(q, "15m", now)
		check(err)
		if err == nil && tr.since.After(tr.until) {
			t.Fatalf("%q: range %v after %v", raw, tr.since, tr.until)
		}
		_, err = filterParams(q)
		check(err)
		_, err = parseBool(q, "onboardedOnly", false)
		check(err)
		_, err = parseFloat(q, "availabilityTarget", 99.5, 0, 100)
		check(err)
		_, err = parseInt(q, "trafficThreshold", 50, 0, 1_000_000_000)
		check(err)
		_, _, err = parseStatusClass(q.Get("statusClass"))
		check(err)
		ef, page, err := api.parseEdgeFilter(httptest.NewRequest("GET", "/", nil), q)
		check(err)
		if err == nil && (page.PageSize < 1 || page.PageSize > 200 || page.Page < 1 || ef.Since.After(ef.Until)) {
			t.Fatalf("%q: filter %+v page %+v", raw, ef, page)
		}
		source, gid, err := parseDetailID(q.Get("id"), q.Get("source"))
		check(err)
		if err == nil && (source == "generic") != (gid > 0) {
			t.Fatalf("%q: source %s id %d", raw, source, gid)
		}
	})
}
