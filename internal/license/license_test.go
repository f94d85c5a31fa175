package license

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStateAt(t *testing.T) {
	exp := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	l := &License{ExpiresAt: exp, GraceDays: 7}
	tests := []struct {
		name string
		lic  *License
		now  time.Time
		want State
	}{
		{"no license", nil, exp.Add(1000 * time.Hour), Valid},
		{"before expiry", l, exp.Add(-time.Second), Valid},
		{"at expiry", l, exp, Grace},
		{"in grace", l, exp.Add(6 * 24 * time.Hour), Grace},
		{"grace over", l, exp.Add(7 * 24 * time.Hour), RuntimeStop},
		{"no grace", &License{ExpiresAt: exp}, exp, RuntimeStop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.lic.StateAt(tt.now); got != tt.want {
				t.Errorf("StateAt = %s, want %s", got, tt.want)
			}
			if got := NewChecker(tt.lic, func() time.Time { return tt.now }).State(); got != tt.want {
				t.Errorf("Checker.State = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`{"graceDays": 3}`, "expiresAt is required"},
		{`{"expiresAt": "2026-01-01T00:00:00Z", "graceDays": -1}`, "graceDays -1 out of range 0..3650"},
		{`{"expiresAt": "2026-01-01T00:00:00Z", "signature": "x"}`, `invalid JSON: json: unknown field "signature"`},
		{`{"expiresAt": "tomorrow"}`, `invalid JSON: parsing time "tomorrow" as "2006-01-02T15:04:05Z07:00": cannot parse "tomorrow" as "2006"`},
		{`{"expiresAt": "2026-01-01T00:00:00Z"} {}`, "invalid JSON: data after the object"},
		{``, "invalid JSON: EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil || err.Error() != tt.want {
				t.Errorf("Parse(%s) error = %v, want %s", tt.in, err, tt.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	if l, err := Load(""); l != nil || err != nil {
		t.Errorf("Load(\"\") = %v, %v; want nil, nil", l, err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "license.json")
	os.WriteFile(p, []byte(`{"licensee":"ACME","expiresAt":"2027-01-01T00:00:00Z","graceDays":14}`), 0o600)
	l, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if l.Licensee != "ACME" || l.GraceDays != 14 || !l.ExpiresAt.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Load = %+v", l)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("Load(missing) error = %v", err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, maxFileSize+1), 0o600)
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Load(big) error = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"licensee":"ACME","expiresAt":"2027-01-01T00:00:00Z","graceDays":14}`))
	f.Add([]byte(`{"expiresAt":"2027-01-01T00:00:00+02:00"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Parse(b)
		if err == nil {
			if l.ExpiresAt.IsZero() || l.GraceDays < 0 {
				t.Errorf("Parse accepted an invalid license: %+v", l)
			}
			l.StateAt(time.Now())
		}
	})
}
