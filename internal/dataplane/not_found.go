package dataplane

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/routing"
)

// allowDetail is the detail of a 405 that lists the methods the path
// takes; the answer's Allow header says the same (RFC 9110 15.5.6).
const allowDetail = "allowed"

// maxListedOperations bounds the operations a 404 names in its message;
// the operations detail lists every one.
const maxListedOperations = 10

// noService is the 404 of a path whose environment and service key name no
// active service. It spells out the path's shape, since a missing
// environment segment (/publish/calculator/add) shifts every segment:
// the service key is read as the environment.
func noService(t Target) *apierr.Error {
	shape := "/" + string(t.Direction) + "/{environment}/{serviceKey}"
	if t.Direction == Publish {
		shape += "/{operation}"
	}
	return apierr.Newf(apierr.RunNotFound, "no active %s service %q in environment %q: %s URLs are %s",
		t.Direction, t.ServiceKey, t.Environment, t.Direction, shape).
		WithDetail("environment", t.Environment).WithDetail("serviceKey", t.ServiceKey)
}

// unknownOperation completes the 404 of a publish path that names no
// operation of svc: the message and the operations detail list what the
// service does answer ("POST /add"), so a caller sees at once what to
// call instead.
func unknownOperation(svc *routing.Service, e *apierr.Error) *apierr.Error {
	ops := make([]string, 0, len(svc.Operations))
	for _, op := range svc.Operations {
		ops = append(ops, op.RESTMethod+" /publish/"+svc.Environment+"/"+svc.ServiceKey+op.RESTPath)
	}
	return listed(e, "operations", ops)
}

// unknownSOAPOperation completes the 404 of a consume call that names no
// operation of svc with the operations' SOAP names.
func unknownSOAPOperation(svc *routing.Service, e *apierr.Error) *apierr.Error {
	ops := make([]string, 0, len(svc.Operations))
	for _, op := range svc.Operations {
		ops = append(ops, op.SOAPName)
	}
	return listed(e, "operations", ops)
}

// listed appends the first names to e's message and every name as the
// detail key.
func listed(e *apierr.Error, key string, names []string) *apierr.Error {
	if len(names) == 0 {
		return e
	}
	shown := names[:min(len(names), maxListedOperations)]
	text := strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		text += " and " + strconv.Itoa(more) + " more"
	}
	out := e.WithDetail(key, names)
	out.Message += "; its operations: " + text
	return out
}

// setAllow sets the Allow header of a 405 from its allowed detail.
func setAllow(h http.Header, e *apierr.Error) {
	if e.Code != apierr.RunMethodNotAllowed {
		return
	}
	if m, ok := e.Details[allowDetail].([]string); ok && len(m) > 0 {
		h.Set("Allow", strings.Join(m, ", "))
	}
}
