package dataplane

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/wssec"
)

const (
	nsWSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
	nsWSU  = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
	utText = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText"
	utDig  = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest"
)

// wssEnvelope11 is a SOAP 1.1 GetOrder with security as its Security
// header's content ("" for no header).
func wssEnvelope11(mustUnderstand, security string) string {
	mu := ""
	if mustUnderstand != "" {
		mu = ` s:mustUnderstand="` + mustUnderstand + `"`
	}
	return `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header>` +
		`<o:Security` + mu + ` xmlns:o="` + nsWSSE + `" xmlns:u="` + nsWSU + `">` + security + `</o:Security>` +
		`</s:Header><s:Body>` + getOrder + `</s:Body></s:Envelope>`
}

func textToken(user, pw string) string {
	return `<o:UsernameToken><o:Username>` + user + `</o:Username><o:Password Type="` + utText + `">` + pw +
		`</o:Password></o:UsernameToken>`
}

func digestToken(user, pw, nonce string, created time.Time) string {
	c := created.UTC().Format(time.RFC3339)
	d := wssec.PasswordDigest([]byte(nonce), c, pw)
	return `<o:UsernameToken><o:Username>` + user + `</o:Username><o:Password Type="` + utDig + `">` + d +
		`</o:Password><o:Nonce>` + base64.StdEncoding.EncodeToString([]byte(nonce)) + `</o:Nonce><u:Created>` + c +
		`</u:Created></o:UsernameToken>`
}

func timestamp(created, expires time.Time) string {
	return `<u:Timestamp><u:Created>` + created.UTC().Format(time.RFC3339) + `</u:Created><u:Expires>` +
		expires.UTC().Format(time.RFC3339) + `</u:Expires></u:Timestamp>`
}

// withWSS sets an inbound policy (mode, one user partner-a / pw-a).
func withWSS(mode string) func(*routing.Source) {
	return func(src *routing.Source) {
		src.InboundWSS = &model.InboundWSSecurity{Mode: mode,
			UsernameTokens: []model.WSSUserPassword{{Username: "partner-a", Password: "pw-a"}}}
		src.Nonces = &wssec.MemoryNonces{}
	}
}

// TestConsumeWSSecurity: the inbound policy is applied before the backend
// is called; refusals are SOAP Faults with the WS-Security fault code
// and S2R-RUN-0407 in the client-fault status of the request's version;
// the authenticated username is on the record.
func TestConsumeWSSecurity(t *testing.T) {
	now := time.Now()
	const ct11, ct12 = "text/xml; charset=utf-8", "application/soap+xml; charset=utf-8"
	get12 := `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body>` + getOrder + `</e:Body></e:Envelope>`
	tests := []struct {
		name, mode, ct, body string
		wantStatus           int
		wantFault            string // WS-Security fault code, "" for success
		wantIdentity         string
	}{
		{name: "off accepts mustUnderstand header unchecked", mode: model.WSSModeOff, ct: ct11,
			body: wssEnvelope11("1", textToken("nobody", "wrong")), wantStatus: 200},
		{name: "optional without header", mode: model.WSSModeOptional, ct: ct11, body: soap11(getOrder), wantStatus: 200},
		{name: "required text", mode: model.WSSModeRequired, ct: ct11,
			body: wssEnvelope11("1", textToken("partner-a", "pw-a")), wantStatus: 200, wantIdentity: "partner-a"},
		{name: "required digest", mode: model.WSSModeRequired, ct: ct11,
			body:       wssEnvelope11("", timestamp(now, now.Add(time.Minute))+digestToken("partner-a", "pw-a", "n-1", now)),
			wantStatus: 200, wantIdentity: "partner-a"},
		{name: "wrong password", mode: model.WSSModeRequired, ct: ct11,
			body: wssEnvelope11("1", textToken("partner-a", "nope")), wantStatus: 500, wantFault: "FailedAuthentication"},
		{name: "optional with bad header", mode: model.WSSModeOptional, ct: ct11,
			body: wssEnvelope11("1", textToken("stranger", "x")), wantStatus: 500, wantFault: "FailedAuthentication"},
		{name: "expired timestamp", mode: model.WSSModeRequired, ct: ct11,
			body:       wssEnvelope11("1", timestamp(now.Add(-time.Hour), now.Add(-50*time.Minute))+textToken("partner-a", "pw-a")),
			wantStatus: 500, wantFault: "MessageExpired"},
		{name: "required without header, SOAP 1.2", mode: model.WSSModeRequired, ct: ct12, body: get12,
			wantStatus: 400, wantFault: "InvalidSecurity"},
		{name: "malformed header", mode: model.WSSModeRequired, ct: ct11,
			body:       wssEnvelope11("1", `<u:Timestamp><u:Created>yesterday</u:Created></u:Timestamp>`+textToken("partner-a", "pw-a")),
			wantStatus: 500, wantFault: "InvalidSecurity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newConsumeEnv(t, Config{}, withWSS(tt.mode))
			e.rest.set(jsonAnswer(200, order1))
			res := e.post(t, tt.ct, "urn:example:orders:GetOrder", tt.body, "cid-wss")
			if res.status != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", res.status, tt.wantStatus, res.body)
			}
			recs := e.log.byCID("cid-wss")
			if len(recs) != 1 {
				t.Fatalf("%d records", len(recs))
			}
			if recs[0].ConsumerIdentity != tt.wantIdentity {
				t.Errorf("consumer identity %q, want %q", recs[0].ConsumerIdentity, tt.wantIdentity)
			}
			if tt.wantFault == "" {
				return
			}
			if e.rest.last().method != "" {
				t.Error("the backend was called")
			}
			want := `xmlns:wsse="` + nsWSSE + `">wsse:` + tt.wantFault + `</`
			if !strings.Contains(res.body, want) || !strings.Contains(res.body, apierr.RunWSSecurity) {
				t.Errorf("fault %s lacks %s and %s", res.body, want, apierr.RunWSSecurity)
			}
			if recs[0].ErrorCode != apierr.RunWSSecurity || recs[0].ResultCode != model.ResultFailed {
				t.Errorf("record %s / %s", recs[0].ErrorCode, recs[0].ResultCode)
			}
		})
	}
}

// TestConsumeWSSecurityReplay: a PasswordDigest token sent twice is
// refused the second time as InvalidSecurity.
func TestConsumeWSSecurityReplay(t *testing.T) {
	e := newConsumeEnv(t, Config{}, withWSS(model.WSSModeRequired))
	e.rest.set(jsonAnswer(200, order1))
	body := wssEnvelope11("1", digestToken("partner-a", "pw-a", "once", time.Now()))
	if res := e.post(t, "text/xml", "urn:example:orders:GetOrder", body, "c1"); res.status != http.StatusOK {
		t.Fatalf("first: %d %s", res.status, res.body)
	}
	res := e.post(t, "text/xml", "urn:example:orders:GetOrder", body, "c2")
	if res.status != 500 || !strings.Contains(res.body, "wsse:InvalidSecurity") {
		t.Errorf("replay: %d %s", res.status, res.body)
	}
}
