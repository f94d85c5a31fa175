package limit

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
)

func TestParseClientSettings(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    *ClientSettings
		wantErr string
	}{
		{"null is no limit", `null`, nil, ""},
		{"empty object is no limit", ` {} `, nil, ""},
		{"ip", `{"clientKey":"ip","requestsPerMinute":60,"burst":10}`,
			&ClientSettings{ClientKey: "ip", RequestsPerMinute: 60, Burst: 10}, ""},
		{"header", `{"clientKey":"header:X-Api-Key","requestsPerMinute":6e2}`,
			&ClientSettings{ClientKey: "header:X-Api-Key", RequestsPerMinute: 600}, ""},
		{"null burst", `{"clientKey":"ip","requestsPerMinute":1,"burst":null}`,
			&ClientSettings{ClientKey: "ip", RequestsPerMinute: 1}, ""},
		{"not an object", `[1]`, nil, "rateLimits: must be a JSON object or null"},
		{"unknown member", `{"clientKey":"ip","requestsPerMinute":1,"perHour":3}`, nil, "perHour: unknown field"},
		{"missing key", `{"requestsPerMinute":1}`, nil, `clientKey: must be "ip" or "header:NAME"`},
		{"unknown key kind", `{"clientKey":"cookie:sid","requestsPerMinute":1}`, nil, `clientKey: must be "ip" or "header:NAME"`},
		{"key kind is case sensitive", `{"clientKey":"IP","requestsPerMinute":1}`, nil, `clientKey: must be "ip" or "header:NAME"`},
		{"header name not a token", `{"clientKey":"header:X Key","requestsPerMinute":1}`, nil,
			"clientKey: the header name must be an HTTP token of at most 256 characters"},
		{"empty header name", `{"clientKey":"header:","requestsPerMinute":1}`, nil,
			"clientKey: the header name must be an HTTP token of at most 256 characters"},
		{"key not a string", `{"clientKey":1,"requestsPerMinute":1}`, nil, "clientKey: must be a string"},
		{"fractional rate", `{"clientKey":"ip","requestsPerMinute":1.5}`, nil, "requestsPerMinute: must be an integer"},
		{"rate as string", `{"clientKey":"ip","requestsPerMinute":"5"}`, nil, "requestsPerMinute: must be an integer"},
		{"zero rate", `{"clientKey":"ip","requestsPerMinute":0}`, nil,
			"requestsPerMinute: must be an integer between 1 and 60000000"},
		{"absurd rate", `{"clientKey":"ip","requestsPerMinute":1e12}`, nil,
			"requestsPerMinute: must be an integer between 1 and 60000000"},
		{"huge number", `{"clientKey":"ip","requestsPerMinute":1e300}`, nil, "requestsPerMinute: must be an integer"},
		{"negative burst", `{"clientKey":"ip","requestsPerMinute":5,"burst":-1}`, nil,
			"burst: must be an integer between 1 and 60000000, or absent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseClientSettings([]byte(tt.body))
			if errText(err) != tt.wantErr {
				t.Fatalf("error = %q, want %q", errText(err), tt.wantErr)
			}
			var fe *model.FieldError
			if err != nil && !errors.As(err, &fe) {
				t.Errorf("error %T is not a *model.FieldError", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("settings (-want +got):\n%s", diff)
			}
		})
	}
}
