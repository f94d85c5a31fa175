package convert

import "testing"

func TestCheckDateTime(t *testing.T) {
	tests := []struct {
		builtin, s string
		ok         bool
	}{
		{"date", "2024-01-02", true},
		{"date", "2024-01-02Z", true},
		{"date", "2024-01-02+05:30", true},
		{"date", "-0044-03-15", true},
		{"date", "12024-01-02", true},
		{"date", "2024-13-02", false},
		{"date", "2024-1-02", false},
		{"date", "02024-01-02", false},
		{"date", "2024-01-02T00:00:00", false},
		{"dateTime", "2024-01-02T03:04:05", true},
		{"dateTime", "2024-01-02T03:04:05.123456Z", true},
		{"dateTime", "2024-01-02T03:04:05-08:00", true},
		{"dateTime", "2024-01-02 03:04:05", false},
		{"dateTime", "2024-01-02T03:04", false},
		{"dateTime", "2024-01-02T03:04:05.", false},
		{"dateTimeStamp", "2024-01-02T03:04:05", false},
		{"time", "23:59:60", true},
		{"time", "25:00:00", false},
		{"time", "12:00:00+15:00", false},
		{"string", "anything", true},
	}
	for _, tt := range tests {
		t.Run(tt.builtin+"/"+tt.s, func(t *testing.T) {
			if got := checkDateTime(tt.builtin, []byte(tt.s)) == ""; got != tt.ok {
				t.Errorf("checkDateTime(%q, %q) ok = %v, want %v", tt.builtin, tt.s, got, tt.ok)
			}
		})
	}
}
