package dataplane

import (
	"strings"

	"github.com/google/uuid"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
)

// anonymousAddress is the WS-Addressing 1.0 anonymous endpoint: the
// answer comes back on the same HTTP connection.
const anonymousAddress = soap.NSAddressing + "/anonymous"

// syncAddressing returns the WS-Addressing headers of a synchronous
// publish call (DESIGN 10.3), nil when neither the WSDL declares
// WS-Addressing for the operation nor the service's default backend
// profile sets wsAddressing: wsa:Action (the declared action, else the
// SOAP action), wsa:To (the endpoint URL), a fresh urn:uuid MessageID and
// an anonymous ReplyTo, as WCF wsHttpBinding requires. The default
// backend decides for every backend of the service, as the envelope is
// built once before one is chosen; addressTo readdresses wsa:To to the
// backend each attempt goes to.
func syncAddressing(svc *routing.Service, op *routing.Operation) *soap.Addressing {
	declared := op.Contract != nil && op.Contract.Addressing
	b := svc.DefaultBackend
	if !declared && (b == nil || !b.Profile.WSAddressing) {
		return nil
	}
	a := &soap.Addressing{Action: wsaAction(op), MessageID: "urn:uuid:" + uuid.NewString(), ReplyTo: anonymousAddress}
	if b != nil {
		a.To = b.Profile.EndpointURL
	}
	return a
}

// wsaAction is the WS-Addressing Action of an operation's request: the
// action its WSDL declares (wsam:Action or wsaw:Action on the input), else
// its SOAP action, else {namespace}/{operation name}.
func wsaAction(op *routing.Operation) string {
	if op.Contract != nil && op.Contract.InputAction != "" {
		return op.Contract.InputAction
	}
	if op.SOAPAction != "" {
		return op.SOAPAction
	}
	if op.SOAPNamespace == "" {
		return op.SOAPName
	}
	return strings.TrimRight(op.SOAPNamespace, "/") + "/" + op.SOAPName
}

// addressTo returns the hook that points the wsa:To of a synchronous
// call's envelope at the backend chosen for each attempt (failover and
// round robin go to other endpoints than the default one); nil when the
// call has no To to adapt. Async calls keep theirs.
func (c *publishCall) addressTo() func(*upstream.Backend, []byte) []byte {
	if c.wsa == nil || c.wsa.To == "" || c.op.ExecutionMode == model.ExecutionAsyncCallback {
		return nil
	}
	from := c.wsa.To
	return func(b *upstream.Backend, body []byte) []byte {
		return soap.ReplaceTo(body, from, b.Profile.EndpointURL)
	}
}
