package access

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

func TestDevRequest(t *testing.T) {
	tests := []struct {
		name   string
		remote string
		host   string
		header map[string]string
		want   bool
	}{
		{name: "curl on loopback", remote: "127.0.0.1:5000", host: "127.0.0.1:8080", want: true},
		{name: "ipv6 loopback", remote: "[::1]:5000", host: "[::1]:8080", want: true},
		{name: "localhost host", remote: "127.0.0.1:5000", host: "localhost:8080", want: true},
		{name: "same-origin fetch", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:8080"}, want: true},
		{name: "typed in address bar", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"Sec-Fetch-Site": "none"}, want: true},
		{name: "remote peer", remote: "10.0.0.7:5000", host: "127.0.0.1:8080"},
		{name: "unparsable peer", remote: "pipe", host: "127.0.0.1:8080"},
		{name: "identity header present", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{HeaderEmail: "x@example.com"}},
		{name: "groups header present", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{HeaderGroups: "ops"}},
		{name: "forwarded by a local proxy", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"X-Forwarded-For": "203.0.113.9"}},
		{name: "forwarded header", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"Forwarded": "for=203.0.113.9"}},
		{name: "x-real-ip", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"X-Real-Ip": "203.0.113.9"}},
		{name: "dns rebinding host", remote: "127.0.0.1:5000", host: "attacker.example:8080"},
		{name: "cross-site fetch", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{name: "same-site other port", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"Sec-Fetch-Site": "same-site"}},
		{name: "foreign origin without fetch metadata", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"Origin": "http://attacker.example"}},
		{name: "null origin", remote: "127.0.0.1:5000", host: "127.0.0.1:8080",
			header: map[string]string{"Origin": "null"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/admin/v1/services", nil)
			req.RemoteAddr, req.Host = tc.remote, tc.host
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if got := DevRequest(req); got != tc.want {
				t.Errorf("DevRequest = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRequireDevIdentity runs Require over real loopback HTTP: without
// identity headers the request acts as the development identity (an admin
// through the bootstrap list); with headers, the headers win; with the
// option off, the request is 401.
func TestRequireDevIdentity(t *testing.T) {
	src := &memBindings{perms: []model.PermissionBinding{{Email: "reader@example.com", Role: model.RoleReader, TenantID: "default"}}}
	newServer := func(dev string) *httptest.Server {
		r := NewResolver(src, []string{"admin@localhost"}, time.Minute)
		r.SetDevIdentity(dev)
		h := r.Require(model.RoleOperator, func(w http.ResponseWriter, req *http.Request) error {
			c, _ := CallerFrom(req.Context())
			return json.NewEncoder(w).Encode(c)
		})
		return httptest.NewServer(apierr.AdminHandlerFunc(h))
	}
	on, off := newServer("Admin@Localhost"), newServer("")
	defer on.Close()
	defer off.Close()

	tests := []struct {
		name       string
		srv        *httptest.Server
		header     map[string]string
		wantStatus int
		wantEmail  string
	}{
		{"dev identity", on, nil, 200, "admin@localhost"},
		{"headers win", on, map[string]string{HeaderEmail: "reader@example.com"}, 403, ""},
		{"cross-site browser", on, map[string]string{"Sec-Fetch-Site": "cross-site"}, 401, ""},
		{"option off", off, nil, 401, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", tc.srv.URL, nil)
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tc.wantStatus)
			}
			if tc.wantEmail == "" {
				return
			}
			var c Caller
			if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
				t.Fatal(err)
			}
			if c.Email != tc.wantEmail || c.Role != model.RoleAdmin {
				t.Errorf("caller = %+v, want %s as admin", c, tc.wantEmail)
			}
		})
	}
}
