package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestGatewayEndToEnd runs s2r serve, imports a gateway service through
// the admin API and sends SOAP bytes through it: refused until a grant
// names the client, then relayed byte for byte with X-Forwarded-For rebuilt
// (honoured only once the peer is a trusted proxy); the backend health and
// the breaker gauge are visible.
func TestGatewayEndToEnd(t *testing.T) {
	wsdlText, err := os.ReadFile("../../internal/dataplane/testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Seen-Xff", strings.Join(r.Header.Values("X-Forwarded-For"), "|"))
		w.Write(b)
	}))
	defer backend.Close()
	base, admin, stop := serveFresh(t)
	defer stop()
	var auto struct {
		Service        struct{ ServiceID string } `json:"service"`
		Version        struct{ VersionID string } `json:"version"`
		BackendProfile struct{ ProfileID string } `json:"backendProfile"`
	}
	body, _ := json.Marshal(map[string]any{"xml": string(wsdlText), "environment": "dev", "serviceKey": "gw", "direction": "gateway"})
	adminCall(t, "POST", admin+"/wsdl/import-xml:autopilot", string(body), http.StatusCreated, &auto)
	adminCall(t, "PATCH", admin+"/backend-profiles/"+auto.BackendProfile.ProfileID, `{"endpointUrl":"`+backend.URL+`/calc"}`, http.StatusOK, nil)
	adminCall(t, "PATCH", admin+"/services/"+auto.Service.ServiceID, `{"backendHealthCheckMode":"tcp","backendHealthCheckIntervalSec":5}`, http.StatusOK, nil)
	adminCall(t, "POST", admin+"/services/"+auto.Service.ServiceID+"/versions/"+auto.Version.VersionID+":activate", "", http.StatusOK, nil)

	soap := []byte("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- c --><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><![CDATA[x]]></s:Body></s:Envelope>  ")
	send := func(xff string) (int, []byte, http.Header) {
		req, _ := http.NewRequest("POST", base+"/gateway/dev/gw", bytes.NewReader(soap))
		req.Header.Set("Content-Type", "text/xml")
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b, resp.Header
	}
	// No grant yet: every client is refused (deny by default).
	poll.Until(t, 2*time.Second, "gateway route served", func() bool {
		status, b, _ := send("")
		return status == 403 && strings.Contains(string(b), "S2R-GW-0407")
	})
	adminCall(t, "PUT", admin+"/services/"+auto.Service.ServiceID+"/consumer-grants", `{"cidrs":["127.0.0.0/8","203.0.113.0/24"]}`, http.StatusOK, nil)
	var got []byte
	var hdr http.Header
	poll.Until(t, 2*time.Second, "grant served", func() bool {
		var status int
		status, got, hdr = send("")
		return status == 200
	})
	if !bytes.Equal(got, soap) || hdr.Get("X-Seen-Xff") != "127.0.0.1" {
		t.Fatalf("relayed %q with X-Forwarded-For %q", got, hdr.Get("X-Seen-Xff"))
	}
	// X-Forwarded-For from a peer that is not a trusted proxy: refused.
	if status, b, _ := send("203.0.113.9"); status != 403 || !strings.Contains(string(b), "S2R-GW-0403") {
		t.Fatalf("untrusted XFF: %d %s", status, b)
	}
	adminCall(t, "PATCH", admin+"/settings", `{"gateway_trusted_proxies":["127.0.0.0/8"]}`, http.StatusOK, nil)
	poll.Until(t, 7*time.Second, "trusted proxies served", func() bool {
		status, _, h := send("198.51.100.1, 203.0.113.9")
		hdr = h
		return status == 200
	})
	if hdr.Get("X-Seen-Xff") != "203.0.113.9" {
		t.Fatalf("backend saw X-Forwarded-For %q, want the attributed client only", hdr.Get("X-Seen-Xff"))
	}

	var health struct {
		Backends []struct {
			ProfileID string `json:"profileId"`
			Healthy   bool   `json:"healthy"`
			Checked   bool   `json:"checked"`
			Breaker   string `json:"breaker"`
		} `json:"backends"`
	}
	poll.Until(t, 3*time.Second, "health checked", func() bool {
		adminCall(t, "GET", admin+"/services/"+auto.Service.ServiceID+"/backend-health", "", http.StatusOK, &health)
		return len(health.Backends) == 1 && health.Backends[0].Checked
	})
	if h := health.Backends[0]; h.ProfileID != auto.BackendProfile.ProfileID || !h.Healthy || h.Breaker != "closed" {
		t.Fatalf("backend health %+v", h)
	}
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`s2r_backend_healthy{profile="` + auto.BackendProfile.ProfileID + `",service="` + auto.Service.ServiceID + `"} 1`,
		`s2r_backend_breaker_state{profile="` + auto.BackendProfile.ProfileID + `",service="` + auto.Service.ServiceID + `"} 0`,
	} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
