package model

import "testing"

func TestRedactTarget(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://user:secret@10.0.0.5:8080/calc?apikey=k#frag", "http://10.0.0.5:8080/calc"},
		{"https://backend.example/soap", "https://backend.example/soap"},
		{"http://h/p?", "http://h/p"},
		{"://bad", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := RedactTarget(tt.in); got != tt.want {
				t.Errorf("RedactTarget(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestResultForCode(t *testing.T) {
	tests := map[string]string{
		"":             ResultSuccess,
		"S2R-VAL-0410": ResultFailed,
		"S2R-RUN-0502": ResultBackendFailure,
		"S2R-RUN-0424": ResultTimeout,
		"S2R-VAL-0430": ResultResponseSchemaViolation,
		"S2R-RUN-0529": ResultError,
		"S2R-XYZ-9999": ResultError,
	}
	for code, want := range tests {
		if got := ResultForCode(code); got != want {
			t.Errorf("ResultForCode(%q) = %q, want %q", code, got, want)
		}
	}
}
