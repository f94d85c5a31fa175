package wssec

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// FaultCode is a WS-Security fault code (a local name in NSWSSE).
type FaultCode string

// The fault codes inbound verification answers (DESIGN 10.2).
const (
	// FailedAuthentication: unknown user, wrong password, untrusted
	// certificate, a signature or digest that does not verify.
	FailedAuthentication FaultCode = "FailedAuthentication"
	// MessageExpired: a Timestamp or UsernameToken Created outside the
	// allowed clock skew.
	MessageExpired FaultCode = "MessageExpired"
	// InvalidSecurity: a malformed or unsupported header, a replayed
	// nonce, a required token or signature missing.
	InvalidSecurity FaultCode = "InvalidSecurity"
)

// Fault is a refused WS-Security header. Message is safe to show to the
// caller: it never holds a password, digest or key.
type Fault struct {
	Code    FaultCode
	Message string
}

// Error renders the code and the message.
func (f *Fault) Error() string { return "wssec: " + string(f.Code) + ": " + f.Message }

// Name is the fault code as a QName in the WS-Security namespace.
func (f *Fault) Name() xmlstream.Name { return xmlstream.Name{Space: NSWSSE, Local: string(f.Code)} }

func fault(code FaultCode, format string, args ...any) *Fault {
	return &Fault{Code: code, Message: fmt.Sprintf(format, args...)}
}

func invalid(format string, args ...any) *Fault { return fault(InvalidSecurity, format, args...) }

func failed(format string, args ...any) *Fault { return fault(FailedAuthentication, format, args...) }

func expired(format string, args ...any) *Fault { return fault(MessageExpired, format, args...) }
