package apierr

import (
	"bytes"
	"net/http"
	"strconv"
)

// SOAPVersion selects the SOAP envelope version of a Fault.
type SOAPVersion int

// SOAP versions.
const (
	SOAP11 SOAPVersion = 11
	SOAP12 SOAPVersion = 12
)

// Namespaces used in rendered Faults.
const (
	NSSOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
	NSSOAP12 = "http://www.w3.org/2003/05/soap-envelope"
	// NSError is the namespace of the s2r detail element.
	NSError = "urn:s2r:error"
)

// ContentType returns the HTTP Content-Type of a Fault of version v.
func (v SOAPVersion) ContentType() string {
	if v == SOAP12 {
		return "application/soap+xml; charset=utf-8"
	}
	return "text/xml; charset=utf-8"
}

// FaultStatus returns the HTTP status of a Fault for e. SOAP 1.1 sends
// every Fault with 500 (SOAP 1.1 section 6.2). The SOAP 1.2 HTTP binding
// (SOAP 1.2 Part 2, section 7.5.2.2) sends an env:Sender Fault with 400 and
// every other Fault with 500; strict clients read a Fault under no other
// status. The S2R code, and so its own status, stays in the Fault. A
// protection refusal (503 S2R-RUN-0509, 429 S2R-RUN-0429) keeps its own
// status with its Retry-After (DESIGN 10.6): it tells the client when to
// try again, which a 500 would not.
func FaultStatus(v SOAPVersion, e *Error) int {
	if IsRefusal(e.Code) {
		return e.Status()
	}
	if v == SOAP12 && senderFault(e) {
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

// senderFault reports whether e is the caller's fault: Client (1.1) or
// Sender (1.2) for the 4xx codes, Server / Receiver otherwise.
func senderFault(e *Error) bool { return e.Status() < 500 }

// MarshalFault returns the SOAP Fault envelope for e. The faultcode is
// Client (1.1) / Sender (1.2) for 4xx codes and Server / Receiver
// otherwise; an error WithFaultCode has that code instead in SOAP 1.1 and
// as the Subcode in SOAP 1.2; the faultstring is "CODE: message", naming
// the first violations when there are (faultReason); the detail holds an
// s2r:error element with code, message, correlationId and the details as
// plain XML (writeDetailValue).
func MarshalFault(v SOAPVersion, e *Error, correlationID string) []byte {
	var b bytes.Buffer
	client := senderFault(e)
	reason := faultReason(e)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>`)
	if v == SOAP12 {
		value := "env:Receiver"
		if client {
			value = "env:Sender"
		}
		b.WriteString(`<env:Envelope xmlns:env="` + NSSOAP12 + `"><env:Body><env:Fault>`)
		b.WriteString(`<env:Code><env:Value>` + value + `</env:Value>`)
		if fc := e.faultCode; fc != nil {
			b.WriteString(`<env:Subcode><env:Value xmlns:` + fc.Prefix + `="`)
			escape(&b, fc.Space)
			b.WriteString(`">` + fc.Prefix + ":" + fc.Local + `</env:Value></env:Subcode>`)
		}
		b.WriteString(`</env:Code>`)
		b.WriteString(`<env:Reason><env:Text xml:lang="en">`)
		escape(&b, reason)
		b.WriteString(`</env:Text></env:Reason><env:Detail>`)
		writeDetail(&b, e, correlationID)
		b.WriteString(`</env:Detail></env:Fault></env:Body></env:Envelope>`)
		return b.Bytes()
	}
	code := "soap:Server"
	if client {
		code = "soap:Client"
	}
	b.WriteString(`<soap:Envelope xmlns:soap="` + NSSOAP11 + `"><soap:Body><soap:Fault>`)
	if fc := e.faultCode; fc != nil {
		b.WriteString(`<faultcode xmlns:` + fc.Prefix + `="`)
		escape(&b, fc.Space)
		b.WriteString(`">` + fc.Prefix + ":" + fc.Local + `</faultcode><faultstring>`)
	} else {
		b.WriteString(`<faultcode>` + code + `</faultcode><faultstring>`)
	}
	escape(&b, reason)
	b.WriteString(`</faultstring><detail>`)
	writeDetail(&b, e, correlationID)
	b.WriteString(`</detail></soap:Fault></soap:Body></soap:Envelope>`)
	return b.Bytes()
}

func writeDetail(b *bytes.Buffer, e *Error, correlationID string) {
	b.WriteString(`<s2r:error xmlns:s2r="` + NSError + `"><s2r:code>`)
	escape(b, e.Code)
	b.WriteString(`</s2r:code><s2r:message>`)
	escape(b, e.Message)
	b.WriteString(`</s2r:message><s2r:correlationId>`)
	escape(b, correlationID)
	b.WriteString(`</s2r:correlationId>`)
	writeDetailMembers(b, e.Details)
	b.WriteString(`</s2r:error>`)
}

// WriteFault writes e as a SOAP Fault response of version v.
func WriteFault(w http.ResponseWriter, v SOAPVersion, e *Error, correlationID string) {
	body := MarshalFault(v, e, correlationID)
	h := w.Header()
	h.Set("Content-Type", v.ContentType())
	h.Set("Content-Length", strconv.Itoa(len(body)))
	SetRetryAfter(h, e)
	w.WriteHeader(FaultStatus(v, e))
	w.Write(body)
}

// RenderFault resolves err like Render and writes it as a SOAP Fault.
func RenderFault(w http.ResponseWriter, r *http.Request, v SOAPVersion, err error) {
	e := Resolve(err, RunInternal)
	Log(r.Context(), e)
	WriteFault(w, v, e, correlationIDOf(r))
}

// FaultCode is a Fault code QName of another namespace than SOAP's, such
// as a WS-Security fault (wsse:FailedAuthentication). Prefix and Local
// must be XML names (they are written as they are).
type FaultCode struct {
	Prefix, Space, Local string
}

// WithFaultCode returns a copy of e whose SOAP rendering carries code: the
// faultcode of a SOAP 1.1 Fault, the Subcode under Sender or Receiver of a
// SOAP 1.2 Fault. The JSON rendering does not change.
func (e *Error) WithFaultCode(code FaultCode) *Error {
	c := *e
	c.faultCode = &code
	return &c
}
