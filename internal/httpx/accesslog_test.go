package httpx

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestAccessLogRedactsSecrets(t *testing.T) {
	log, buf := newLogger()
	srv := serve(t, Correlation(AccessLog(log)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("short"))
	}))))
	secrets := map[string]string{
		"Authorization":         "Bearer s3cr3t-auth",
		"Proxy-Authorization":   "Basic s3cr3t-proxy",
		"Cookie":                "session=s3cr3t-cookie",
		"X-S2R-Callback-Secret": "s3cr3t-callback",
		"X-S2R-Poll-Token":      "s3cr3t-poll",
		"X-Api-Key":             "s3cr3t-apikey",
		"X-Backend-Password":    "s3cr3t-password",
		"X-Refresh-Token":       "s3cr3t-refresh",
	}
	req, _ := http.NewRequest("GET", srv.URL+"/publish/dev/svc?access_token=s3cr3t-query&page=2", nil)
	for k, v := range secrets {
		req.Header.Set(k, v)
	}
	req.Header.Set("X-Correlation-Id", "cid-log")
	req.Header.Set("X-Debug-Enabled", "true")
	do(t, req)

	out := buf.String()
	if strings.Contains(out, "s3cr3t") {
		t.Fatalf("a secret appears in the access log:\n%s", out)
	}
	var line struct {
		Msg           string            `json:"msg"`
		Method        string            `json:"method"`
		Path          string            `json:"path"`
		Query         string            `json:"query"`
		Status        int               `json:"status"`
		Bytes         int               `json:"bytes"`
		CorrelationID string            `json:"correlationId"`
		Headers       map[string]string `json:"headers"`
	}
	if err := json.Unmarshal([]byte(out), &line); err != nil {
		t.Fatalf("not one JSON line: %v\n%s", err, out)
	}
	if line.Method != "GET" || line.Path != "/publish/dev/svc" || line.Status != 418 || line.Bytes != 5 || line.CorrelationID != "cid-log" {
		t.Errorf("unexpected line: %+v", line)
	}
	if line.Query != "access_token=%5BREDACTED%5D&page=2" {
		t.Errorf("query = %q", line.Query)
	}
	for k := range secrets {
		if got := line.Headers[http.CanonicalHeaderKey(k)]; got != Redacted {
			t.Errorf("header %s logged as %q, want %s", k, got, Redacted)
		}
	}
	if got := line.Headers["X-Debug-Enabled"]; got != "true" {
		t.Errorf("non-secret header X-Debug-Enabled = %q, want true", got)
	}
}

func TestSensitive(t *testing.T) {
	tests := map[string]bool{
		"Authorization": true, "cookie": true, "X-S2R-Poll-Token": true, "X-Client-Secret": true,
		"X-API-Key": true, "Password": true, "Content-Type": false, "X-Correlation-Id": false, "SOAPAction": false,
	}
	for name, want := range tests {
		if got := Sensitive(name); got != want {
			t.Errorf("Sensitive(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestAccessLogProbesAtDebug(t *testing.T) {
	log, buf := newLogger() // info level
	srv := serve(t, AccessLog(log)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})))
	for _, p := range []string{"/health/live", "/metrics", "/publish/dev/x"} {
		req, _ := http.NewRequest("GET", srv.URL+p, nil)
		do(t, req)
	}
	out := buf.String()
	if strings.Contains(out, "/health/live") || strings.Contains(out, `"/metrics"`) {
		t.Errorf("probes logged at info:\n%s", out)
	}
	if !strings.Contains(out, "/publish/dev/x") {
		t.Errorf("runtime request not logged:\n%s", out)
	}
}
