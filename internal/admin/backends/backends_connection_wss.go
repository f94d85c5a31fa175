package backends

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// wssProbe is the request of the wsSecurity step: a SOAP 1.1 envelope with
// an empty Body. The profile's WS-Security header is added when it is
// sent, as on every publish call.
const wssProbe = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body/></soapenv:Envelope>`

// wssProbeTimeout bounds the wsSecurity step.
const wssProbeTimeout = 15 * time.Second

// wssStep sends the probe to the endpoint with the profile's wsSecurity
// (DESIGN 10.1) and reads the answer: a WS-Security fault fails the step
// with its likely cause in plain words; any other answer (a fault about
// the empty Body included) means the header got through the backend's
// security processing.
func (s *Handlers) wssStep(ctx context.Context, p model.BackendProfile) connectionStep {
	st := connectionStep{Name: "wsSecurity"}
	b, err := upstream.Open(s.secrets, p)
	if err != nil {
		st.Status, st.Message = StepFailed, "the WS-Security header cannot be built: "+wssOpenReason(err)
		return st
	}
	none := 0
	start := time.Now()
	resp, err := s.client.Do(ctx, b, upstream.Request{Method: http.MethodPost, Body: []byte(wssProbe), SOAP: true,
		Header:  http.Header{"Content-Type": {"text/xml; charset=utf-8"}, "SOAPAction": {`""`}},
		Timeout: wssProbeTimeout, Retries: &none, MaxResponseBytes: 1 << 20})
	st.DurationMs = since(start)
	if err != nil {
		st.Status, st.Message = StepFailed, "the signed request could not be sent: "+upstream.KindOf(err).String()
		return st
	}
	st.HTTPStatus = resp.StatusCode
	m, perr := soap.Parse(resp.Body, xmlstream.Limits{MaxSize: 1 << 20})
	if perr == nil && m.Fault != nil {
		if why, ok := explainWSSFault(m.Fault); ok {
			st.Status, st.Message = StepFailed, why
			return st
		}
		st.Status = StepOK
		st.Message = "the backend accepted the WS-Security header (it answered a SOAP fault about the empty test " +
			"request: " + clip(m.Fault.Reason, 200) + ")"
		return st
	}
	st.Status = StepOK
	st.Message = fmt.Sprintf("the backend answered HTTP %d without a WS-Security fault", resp.StatusCode)
	return st
}

// wssOpenReason says why the profile's WS-Security could not be compiled,
// without quoting a secret (the errors name fields only).
func wssOpenReason(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "wsSecurity: "); i >= 0 {
		return msg[i+len("wsSecurity: "):]
	}
	return "a credential is missing or cannot be decrypted"
}

// wssCause is one known cause of a WS-Security fault: the fault code
// local names or reason words that reveal it, and what it means.
type wssCause struct {
	codes   []string
	words   []string
	explain string
}

// wssCauses are checked in order; the first that matches explains the fault.
var wssCauses = []wssCause{
	{codes: []string{"MessageExpired"}, words: []string{"expired", "stale", "in the future", "clock", "skew"},
		explain: "the backend says the message has expired: the clocks of s2r and the backend differ by more than " +
			"the backend allows, or wsSecurity.timestamp.ttlSeconds is too short (check NTP on both hosts)"},
	{codes: []string{"FailedCheck"}, words: []string{"digest"},
		explain: "a digest of the signature did not verify at the backend (digest mismatch): check " +
			"wsSecurity.signature.digestAlgorithm and signParts, and that no proxy rewrites the message"},
	{words: []string{"signature", "certificate", "trust", "x509"},
		explain: "the backend refused the signature: it does not trust wsSecurity.signature.certificatePem, or it " +
			"expects another signatureAlgorithm or keyIdentifier"},
	{codes: []string{"SecurityTokenUnavailable"},
		explain: "the backend cannot find the certificate the signature refers to: with IssuerSerial or " +
			"SubjectKeyIdentifier it must already hold the certificate; BinarySecurityToken sends it"},
	{codes: []string{"FailedAuthentication"}, words: []string{"password", "user", "authenticat", "credential"},
		explain: "the backend refused the UsernameToken: unknown user or wrong password (check " +
			"wsSecurity.usernameToken.username, credentials.wssPassword and passwordType)"},
	{codes: []string{"InvalidSecurity", "InvalidSecurityToken", "UnsupportedSecurityToken", "UnsupportedAlgorithm"},
		words: []string{"security", "wsse"},
		explain: "the backend could not process the WS-Security header: it expects other tokens or algorithms " +
			"(check passwordType, keyIdentifier, signatureAlgorithm and whether a Timestamp or signature is required)"},
}

// explainWSSFault reports whether f is a WS-Security fault and, if so,
// explains its likely cause in plain words, quoting the backend's reason.
func explainWSSFault(f *soap.Fault) (string, bool) {
	codes := append([]xmlstream.Name{f.Code}, f.Subcodes...)
	isWSS := false
	for _, c := range codes {
		local := c.Local
		if i := strings.LastIndexByte(local, '.'); i >= 0 {
			local = local[i+1:] // 1.1 dotted subcodes
		}
		if c.Space == wsseNS || strings.Contains(local, "Security") || local == "FailedAuthentication" ||
			local == "MessageExpired" || local == "FailedCheck" {
			isWSS = true
		}
	}
	reason := strings.ToLower(f.Reason)
	for _, cause := range wssCauses {
		if matchCause(cause, codes, reason, isWSS) {
			return cause.explain + ". The backend said: " + clip(f.Reason, 300), true
		}
	}
	return "", false
}

// wsseNS is the WS-Security 1.0 namespace of the fault codes.
const wsseNS = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"

// matchCause reports whether the fault codes or, for a fault that is
// about security, its reason words, match cause.
func matchCause(cause wssCause, codes []xmlstream.Name, reason string, isWSS bool) bool {
	for _, c := range codes {
		for _, want := range cause.codes {
			if c.Local == want || strings.HasSuffix(c.Local, "."+want) {
				return true
			}
		}
	}
	if !isWSS && !strings.Contains(reason, "security") && !strings.Contains(reason, "wsse") {
		return false
	}
	for _, w := range cause.words {
		if strings.Contains(reason, w) {
			return true
		}
	}
	return false
}

// clip shortens s to at most n bytes for a report.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
