package apierr

import (
	"net/http/httptest"
	"testing"
)

// TestRefusalKeepsStatusAndRetryAfter: a protection refusal is answered
// with its own status and a Retry-After header as JSON and as a SOAP Fault
// of either version; other errors get no Retry-After.
func TestRefusalKeepsStatusAndRetryAfter(t *testing.T) {
	tests := []struct {
		name       string
		e          *Error
		want       int
		retryAfter string
	}{
		{"saturated", New(RunBackendSaturated, "busy").WithDetail(RetryAfterDetail, int64(2)), 503, "2"},
		{"client rate", New(RunClientRateLimit, "slow down").WithDetail(RetryAfterDetail, int64(7)), 429, "7"},
		{"other 503", New(RunUnavailable, "down").WithDetail(RetryAfterDetail, int64(7)), 500, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range []SOAPVersion{SOAP11, SOAP12} {
				w := httptest.NewRecorder()
				WriteFault(w, v, tc.e, "cid")
				if w.Code != tc.want || w.Header().Get("Retry-After") != tc.retryAfter {
					t.Errorf("SOAP %d: status %d Retry-After %q, want %d %q", v, w.Code, w.Header().Get("Retry-After"), tc.want, tc.retryAfter)
				}
			}
			w := httptest.NewRecorder()
			WriteJSON(w, tc.e, "cid")
			if w.Header().Get("Retry-After") != tc.retryAfter || (tc.retryAfter != "" && w.Code != tc.want) {
				t.Errorf("JSON: status %d Retry-After %q", w.Code, w.Header().Get("Retry-After"))
			}
		})
	}
}
