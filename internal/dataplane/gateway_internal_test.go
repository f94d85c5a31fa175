package dataplane

import (
	"io"
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

// TestHasFaultElement: the one-pass search finds exactly what searching
// for ":Fault" and "<Fault" finds.
func TestHasFaultElement(t *testing.T) {
	for _, s := range []string{
		"", "Fault", "xFault", "<Fault", ":Fault", "<soap:Fault>", "FaultFault<Fault", "FaultxFault:Fault",
		"<Body><Result>Faulty</Result></Body>", "<e:Faultcode/>", "FaultString Fault", "<Faul", ":Faul",
	} {
		want := strings.Contains(s, ":Fault") || strings.Contains(s, "<Fault")
		if got := hasFaultElement([]byte(s)); got != want {
			t.Errorf("%q: got %v, want %v", s, got, want)
		}
	}
}

// TestReadSmallBody: a small body is sent from memory; a short one yields
// the bytes read and then io.ErrUnexpectedEOF, as the streamed body does.
func TestReadSmallBody(t *testing.T) {
	b, all := readSmallBody(&limitedBody{src: io.NopCloser(strings.NewReader("hello")), limit: 1 << 20}, 5)
	if got, err := io.ReadAll(b); err != nil || string(got) != "hello" || string(all) != "hello" {
		t.Fatalf("got %q %q %v", got, all, err)
	}
	lb := &limitedBody{src: io.NopCloser(strings.NewReader("hel")), limit: 1 << 20}
	b, all = readSmallBody(lb, 5)
	if got, err := io.ReadAll(b); err != io.ErrUnexpectedEOF || string(got) != "hel" || all != nil {
		t.Fatalf("short body: got %q %q %v", got, all, err)
	}
	if n := lb.n.Load(); n != 3 {
		t.Fatalf("counted %d bytes, want 3", n)
	}
}
