package apierr

import (
	"encoding/xml"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type fault11 struct {
	XMLName xml.Name `xml:"http://schemas.xmlsoap.org/soap/envelope/ Envelope"`
	Fault   struct {
		Code   string `xml:"faultcode"`
		String string `xml:"faultstring"`
		Detail struct {
			Error s2rDetail `xml:"urn:s2r:error error"`
		} `xml:"detail"`
	} `xml:"Body>Fault"`
}

type fault12 struct {
	XMLName xml.Name `xml:"http://www.w3.org/2003/05/soap-envelope Envelope"`
	Fault   struct {
		Code   string `xml:"Code>Value"`
		Reason string `xml:"Reason>Text"`
		Detail struct {
			Error s2rDetail `xml:"urn:s2r:error error"`
		} `xml:"Detail"`
	} `xml:"Body>Fault"`
}

type s2rDetail struct {
	Code          string `xml:"code"`
	Message       string `xml:"message"`
	CorrelationID string `xml:"correlationId"`
	Details       []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:",chardata"`
	} `xml:"detail"`
}

func TestMarshalFault11(t *testing.T) {
	e := New(RunNotFound, `no route for <a&b> "x"`).WithDetail("path", "/consume/<dev>")
	var f fault11
	if err := xml.Unmarshal(MarshalFault(SOAP11, e, "cid&1"), &f); err != nil {
		t.Fatalf("fault is not well-formed: %v", err)
	}
	if f.Fault.Code != "soap:Client" {
		t.Errorf("faultcode = %q, want soap:Client", f.Fault.Code)
	}
	if want := `S2R-RUN-0404: no route for <a&b> "x"`; f.Fault.String != want {
		t.Errorf("faultstring = %q, want %q", f.Fault.String, want)
	}
	d := f.Fault.Detail.Error
	if d.Code != "S2R-RUN-0404" || d.CorrelationID != "cid&1" {
		t.Errorf("detail = %+v", d)
	}
	if len(d.Details) != 1 || d.Details[0].Name != "path" || d.Details[0].Value != "/consume/<dev>" {
		t.Errorf("details = %+v", d.Details)
	}
}

func TestMarshalFault12(t *testing.T) {
	tests := []struct {
		err      *Error
		wantCode string
	}{
		{New(ValBadRequest, "bad"), "env:Sender"},
		{New(RunBackendTimeout, "slow"), "env:Receiver"},
	}
	for _, tt := range tests {
		t.Run(tt.err.Code, func(t *testing.T) {
			var f fault12
			if err := xml.Unmarshal(MarshalFault(SOAP12, tt.err, "c"), &f); err != nil {
				t.Fatal(err)
			}
			got := []string{f.Fault.Code, f.Fault.Reason, f.Fault.Detail.Error.Code}
			want := []string{tt.wantCode, tt.err.Code + ": " + tt.err.Message, tt.err.Code}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestFaultEscapesInvalidCharacters(t *testing.T) {
	e := New(ValBadRequest, "ctl\x00\x1b]]>")
	if err := xml.Unmarshal(MarshalFault(SOAP11, e, "c"), new(fault11)); err != nil {
		t.Fatalf("fault with control characters is not well-formed: %v", err)
	}
}

func TestRenderFault(t *testing.T) {
	captureLog(t)
	tests := []struct {
		v          SOAPVersion
		err        error
		wantStatus int
		wantCT     string
		wantCode   string
	}{
		{SOAP11, New(RunNotFound, "x"), 500, "text/xml", "S2R-RUN-0404"},
		{SOAP12, New(RunNotFound, "x"), 400, "application/soap+xml", "S2R-RUN-0404"},
		{SOAP12, New(RunBackendFault, "x"), 500, "application/soap+xml", "S2R-RUN-0502"},
		{SOAP12, New(RunBackendTimeout, "x"), 500, "application/soap+xml", "S2R-RUN-0424"},
		{SOAP12, PayloadTooLarge(RunPayloadTooLarge, 10), 400, "application/soap+xml", "S2R-RUN-0413"},
		{SOAP12, errors.New("secret"), 500, "application/soap+xml", "S2R-RUN-0500"},
	}
	for _, tt := range tests {
		t.Run(tt.wantCode, func(t *testing.T) {
			h := withCorrelation("cid", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				RenderFault(w, r, tt.v, tt.err)
			}))
			resp, body := get(t, h)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, tt.wantCT) {
				t.Errorf("Content-Type = %q, want %s", ct, tt.wantCT)
			}
			if !strings.Contains(string(body), "<s2r:code>"+tt.wantCode+"</s2r:code>") {
				t.Errorf("body lacks code %s: %s", tt.wantCode, body)
			}
			if strings.Contains(string(body), "secret") {
				t.Errorf("body leaks the cause: %s", body)
			}
			if !strings.Contains(string(body), "<s2r:correlationId>cid</s2r:correlationId>") {
				t.Errorf("body lacks correlation id: %s", body)
			}
		})
	}
}

// TestMarshalFaultWithFaultCode: a WS-Security refusal carries its QName
// as the SOAP 1.1 faultcode and as the Subcode of Sender in SOAP 1.2, the
// S2R code staying in the detail.
func TestMarshalFaultWithFaultCode(t *testing.T) {
	const ns = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
	e := New(RunWSSecurity, "unknown user or wrong password").
		WithFaultCode(FaultCode{Prefix: "wsse", Space: ns, Local: "FailedAuthentication"})
	b11 := string(MarshalFault(SOAP11, e, "c1"))
	if want := `<faultcode xmlns:wsse="` + ns + `">wsse:FailedAuthentication</faultcode>`; !strings.Contains(b11, want) {
		t.Errorf("SOAP 1.1 fault %s lacks %s", b11, want)
	}
	var f fault11
	if err := xml.Unmarshal([]byte(b11), &f); err != nil || f.Fault.Detail.Error.Code != RunWSSecurity {
		t.Errorf("SOAP 1.1 fault: %v, detail %+v", err, f.Fault.Detail.Error)
	}
	b12 := string(MarshalFault(SOAP12, e, "c1"))
	want12 := `<env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value xmlns:wsse="` + ns +
		`">wsse:FailedAuthentication</env:Value></env:Subcode></env:Code>`
	if !strings.Contains(b12, want12) {
		t.Errorf("SOAP 1.2 fault %s lacks %s", b12, want12)
	}
	if FaultStatus(SOAP11, e) != 500 || FaultStatus(SOAP12, e) != 400 {
		t.Errorf("fault statuses %d/%d, want 500/400", FaultStatus(SOAP11, e), FaultStatus(SOAP12, e))
	}
	var g fault12
	if err := xml.Unmarshal([]byte(b12), &g); err != nil || g.Fault.Code != "env:Sender" {
		t.Errorf("SOAP 1.2 fault: %v, code %q", err, g.Fault.Code)
	}
}
