package httpx

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCrossOrigin(t *testing.T) {
	srv := httptest.NewServer(CrossOrigin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	})))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	tests := []struct {
		name, method string
		header       map[string]string
		wantStatus   int
	}{
		{"script without browser headers", "POST", nil, 200},
		{"same-origin fetch", "POST", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": srv.URL}, 200},
		{"cross-site post", "POST", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, 403},
		{"same-site post", "DELETE", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{"foreign origin, old browser", "PATCH", map[string]string{"Origin": "https://evil.example"}, 403},
		{"own origin, old browser", "PATCH", map[string]string{"Origin": "http://" + host}, 200},
		{"cross-site get is safe", "GET", map[string]string{"Sec-Fetch-Site": "cross-site"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+"/admin/v1/services", nil)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", resp.StatusCode, tt.wantStatus, b)
			}
			if tt.wantStatus == 403 && !strings.Contains(string(b), `"code":"S2R-ADM-0403"`) {
				t.Errorf("body = %s, want S2R-ADM-0403", b)
			}
		})
	}
}
