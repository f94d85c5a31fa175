package dataplane_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wssec"
)

// TestGatewayWSSecurity: a gateway service with an inbound policy
// forwards an accepted request's bytes unchanged (identity recorded) and
// answers a refused one with a SOAP Fault of its version, without calling
// the backend.
func TestGatewayWSSecurity(t *testing.T) {
	backend := hashBackend(t)
	var calls atomic.Int32
	hash := backend.Config.Handler
	backend.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		hash.ServeHTTP(w, r)
	})
	svc := gwService("single", backend.URL)
	v, err := wssec.NewVerifier(&model.InboundWSSecurity{Mode: model.WSSModeRequired,
		UsernameTokens: []model.WSSUserPassword{{Username: "partner-a", Password: "pw-a"}}}, &wssec.MemoryNonces{})
	if err != nil {
		t.Fatal(err)
	}
	svc.WSSecurity = v
	gw := newGW(t, svc, 1, dataplane.GatewayConfig{})

	env := func(pw string) string {
		return `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header>` +
			`<o:Security s:mustUnderstand="1" xmlns:o="` + wssec.NSWSSE + `"><o:UsernameToken><o:Username>partner-a</o:Username>` +
			`<o:Password>` + pw + `</o:Password></o:UsernameToken></o:Security></s:Header>` +
			`<s:Body><Add xmlns="urn:calc"><a>1</a><b>2</b></Add></s:Body></s:Envelope>`
	}
	post := func(body, ct string) (int, string) {
		resp, err := http.Post(gw.front.URL+"/gateway/dev/calc", ct, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	ok := env("pw-a")
	status, body := post(ok, "text/xml")
	var h hashAnswer
	if status != 200 || json.Unmarshal([]byte(body), &h) != nil || h.SHA256 != sum([]byte(ok)) {
		t.Fatalf("accepted request: %d %s (want the backend to see the bytes unchanged)", status, body)
	}
	if rec := gw.recs.last(t); rec.ConsumerIdentity != "partner-a" {
		t.Errorf("consumer identity %q", rec.ConsumerIdentity)
	}

	n := gw.recs.count()
	status, body = post(env("wrong"), "text/xml")
	if status != 500 || !strings.Contains(body, "wsse:FailedAuthentication") || !strings.Contains(body, apierr.RunWSSecurity) {
		t.Errorf("refused SOAP 1.1: %d %s", status, body)
	}
	status, body = post(`<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body/></e:Envelope>`,
		"application/soap+xml")
	if status != 400 || !strings.Contains(body, "<env:Subcode>") || !strings.Contains(body, "wsse:InvalidSecurity") {
		t.Errorf("refused SOAP 1.2: %d %s", status, body)
	}
	if rec := gw.recs.after(t, n); rec.ErrorCode != apierr.RunWSSecurity || rec.HTTPStatus != 500 {
		t.Errorf("record of the refusal: %s %d", rec.ErrorCode, rec.HTTPStatus)
	}
	if calls.Load() != 1 {
		t.Errorf("backend called %d times, want 1", calls.Load())
	}
}
