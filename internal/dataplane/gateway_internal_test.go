package dataplane

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestGatewayAtGeneralMapping: a gateway request that reaches the general
// mapping (which the dispatcher never lets happen) is refused with 500
// S2R-RUN-0500 rather than served as publish or consume traffic.
func TestGatewayAtGeneralMapping(t *testing.T) {
	d := New(Config{})
	r := httptest.NewRequest(http.MethodPost, "/gateway/dev/calc", strings.NewReader("<x/>"))
	r = r.WithContext(withTarget(r.Context(), Target{Direction: Gateway, Environment: "dev", ServiceKey: "calc"}))
	w := httptest.NewRecorder()
	d.route.ServeHTTP(w, r)
	if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), `"S2R-RUN-0500"`) {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
}
