// Package soap reads and writes SOAP 1.1 and 1.2 envelopes: header blocks,
// body ranges, faults in one model for both versions, WS-Addressing headers,
// content types and MTOM/XOP packages. Parsing streams with
// xmlstream.Reader and never builds a tree.
package soap

import (
	"errors"
	"fmt"
	"mime"
	"strings"
)

// Version is a SOAP version.
type Version uint8

// SOAP versions.
const (
	V11 Version = iota + 1
	V12
)

// Namespaces of the two envelope versions, WS-Addressing and XOP.
const (
	NS11         = "http://schemas.xmlsoap.org/soap/envelope/"
	NS12         = "http://www.w3.org/2003/05/soap-envelope"
	NSAddressing = "http://www.w3.org/2005/08/addressing"
	NSXOP        = "http://www.w3.org/2004/08/xop/include"
)

// Namespaces of the WS-Addressing member submissions that came before
// WS-Addressing 1.0 and that older stacks (WSE, Axis 1, early WCF
// bindings) still send. They are read like 1.0; s2r writes only 1.0.
const (
	NSAddressing200408 = "http://schemas.xmlsoap.org/ws/2004/08/addressing"
	NSAddressing200403 = "http://schemas.xmlsoap.org/ws/2004/03/addressing"
)

// IsAddressing reports whether ns is WS-Addressing 1.0 or one of the
// member-submission namespaces s2r reads.
func IsAddressing(ns string) bool {
	return ns == NSAddressing || ns == NSAddressing200408 || ns == NSAddressing200403
}

// Media types of the two versions.
const (
	MediaType11 = "text/xml"
	MediaType12 = "application/soap+xml"
)

// ErrUnknownVersion reports a content type or envelope namespace that is
// neither SOAP 1.1 nor 1.2.
var ErrUnknownVersion = errors.New("soap: not a SOAP 1.1 or 1.2 message")

// String returns "1.1", "1.2" or "unknown".
func (v Version) String() string {
	switch v {
	case V11:
		return "1.1"
	case V12:
		return "1.2"
	}
	return "unknown"
}

// Namespace is the envelope namespace of v.
func (v Version) Namespace() string {
	if v == V12 {
		return NS12
	}
	return NS11
}

// prefix is the envelope prefix the writer uses.
func (v Version) prefix() string {
	if v == V12 {
		return "env"
	}
	return "soapenv"
}

// ContentType is the Content-Type of a v message; for 1.2 a non-empty
// action becomes the action parameter (1.1 sends it in SOAPAction).
func (v Version) ContentType(action string) string {
	if v == V12 {
		if action == "" {
			return MediaType12 + "; charset=utf-8"
		}
		return mime.FormatMediaType(MediaType12, map[string]string{"charset": "utf-8", "action": action})
	}
	return MediaType11 + "; charset=utf-8"
}

// ParseVersion parses "1.1" or "1.2".
func ParseVersion(s string) (Version, error) {
	switch s {
	case "1.1", "11":
		return V11, nil
	case "1.2", "12":
		return V12, nil
	}
	return 0, fmt.Errorf("soap: version %q: %w", s, ErrUnknownVersion)
}

// VersionFromNamespace returns the version whose envelope namespace is ns.
func VersionFromNamespace(ns string) (Version, bool) {
	switch ns {
	case NS11:
		return V11, true
	case NS12:
		return V12, true
	}
	return 0, false
}

// VersionFromContentType detects the version from a Content-Type: text/xml
// is 1.1, application/soap+xml is 1.2, and an MTOM multipart/related
// package is decided by its start-info (or type) parameter.
func VersionFromContentType(ct string) (Version, error) {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return 0, fmt.Errorf("soap: content type %q: %w", ct, err)
	}
	switch mt {
	case MediaType11:
		return V11, nil
	case MediaType12:
		return V12, nil
	case "multipart/related":
		inner := params["start-info"]
		if inner == "" {
			inner = params["type"]
		}
		if inner != "" && inner != ct && !strings.HasPrefix(inner, "multipart/") {
			if v, err := VersionFromContentType(inner); err == nil {
				return v, nil
			}
		}
	case "application/xop+xml":
		if t := params["type"]; t != "" {
			return VersionFromContentType(t)
		}
	}
	return 0, fmt.Errorf("soap: content type %q: %w", ct, ErrUnknownVersion)
}

// Action returns the SOAP action of a request: the SOAPAction header
// (quotes removed) for 1.1, the action parameter of the Content-Type for
// 1.2 (falling back to SOAPAction when absent).
func Action(contentType, soapAction string) string {
	if mt, params, err := mime.ParseMediaType(contentType); err == nil {
		if a := params["action"]; a != "" {
			return a
		}
		if mt == "multipart/related" || mt == "application/xop+xml" {
			if a := actionFromInner(params); a != "" {
				return a
			}
		}
	}
	return strings.Trim(strings.TrimSpace(soapAction), `"`)
}

func actionFromInner(params map[string]string) string {
	for _, k := range []string{"start-info", "type"} {
		if _, p, err := mime.ParseMediaType(params[k]); err == nil && p["action"] != "" {
			return p["action"]
		}
	}
	return ""
}
