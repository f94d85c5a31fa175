package catalog

import (
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Mapping diagnostic statuses (SPEC 3.3).
const (
	AutoReady             = "AUTO_READY"
	AutoReadyWithWarnings = "AUTO_READY_WITH_WARNINGS"
	ManualRequired        = "MANUAL_REQUIRED"
)

// Reason codes of diagnostics.
const (
	ReasonAnyContent    = "ANY_CONTENT"          // warning: xs:any, anyType or anyAttribute content
	ReasonRPCEncoded    = "RPC_ENCODED"          // warning: SOAP encoding rules apply
	ReasonMTOM          = "MTOM"                 // warning: binary parts travel as base64 in JSON
	ReasonRecursive     = "RECURSIVE_TYPE"       // warning: a type contains itself
	ReasonTruncated     = "DEEP_CONTRACT"        // warning: deeper or wider than the walk limits
	ReasonOneWay        = "ONE_WAY"              // warning: no response message
	ReasonSOAPHeaders   = "SOAP_HEADERS"         // warning: a soap:header part named by type, whose element name is a guess
	ReasonNoContract    = "NO_CONTRACT"          // manual: the operation is not in its WSDL import
	ReasonUnresolved    = "UNRESOLVED_REFERENCE" // manual: the body needs a schema component the import could not resolve
	ReasonMappingError  = "MAPPING_INVALID"      // manual: a mapping does not parse or names unknown fields
	ReasonManualMapping = "MANUAL_MAPPING"       // information: the mapping was written by hand
)

// Reason explains a diagnostic status.
type Reason struct {
	Code     string `json:"code"`
	Severity string `json:"severity"` // info, warning or blocking
	Section  string `json:"section,omitempty"`
	Field    string `json:"field,omitempty"`
	Message  string `json:"message"`
	// File, Line and Name locate an UNRESOLVED_REFERENCE: the document
	// and line of the reference and the name it could not resolve (in
	// {namespace}local form; empty when the component failed otherwise).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Name string `json:"name,omitempty"`
}

// Diagnostics is the mapping readiness of one operation.
type Diagnostics struct {
	Status  string   `json:"status"`
	Reasons []Reason `json:"reasons"`
}

// Summary counts diagnostics by status; every status is present.
type Summary map[string]int

// NewSummary returns a summary with every status at zero.
func NewSummary() Summary {
	return Summary{AutoReady: 0, AutoReadyWithWarnings: 0, ManualRequired: 0}
}

// Diagnose assesses the mapping m of an operation with contract op (nil
// when the operation has no contract). MANUAL_REQUIRED: no contract, a
// contract whose body needs what its import could not resolve (while the
// mapping is the auto mapping), or a mapping that does not parse, names
// fields the contract lacks, or (request mapping of a consume operation)
// has an unusable REST target.
// AUTO_READY_WITH_WARNINGS: the mapping is usable but the contract has
// content JSON cannot pin down exactly (wildcards, rpc/encoded, MTOM,
// recursion, very deep or wide types, one-way). AUTO_READY otherwise.
func Diagnose(op *xsd.Operation, m model.Mapping) Diagnostics {
	return diagnose(shapes{}, op, m)
}

func diagnose(c shapes, op *xsd.Operation, m model.Mapping) Diagnostics {
	d := Diagnostics{Reasons: []Reason{}}
	for _, p := range checkMapping(c, op, m) {
		code := ReasonMappingError
		if p.Section == "contract" {
			code = ReasonNoContract
		}
		d.Reasons = append(d.Reasons, Reason{Code: code, Severity: "blocking", Section: p.Section, Field: p.Field, Message: p.Reason})
	}
	if op != nil {
		d.Reasons = append(d.Reasons, unresolvedReasons(op, m)...)
		d.Reasons = append(d.Reasons, contractWarnings(c, op)...)
	}
	if m.Source == model.MappingManual {
		d.Reasons = append(d.Reasons, Reason{Code: ReasonManualMapping, Severity: "info", Message: "the mapping was edited by hand"})
	}
	d.Status = AutoReady
	for _, r := range d.Reasons {
		switch r.Severity {
		case "blocking":
			d.Status = ManualRequired
		case "warning":
			if d.Status == AutoReady {
				d.Status = AutoReadyWithWarnings
			}
		}
	}
	return d
}

// unresolvedReasons reports what op's input or output needs but its import
// could not resolve (xsd.Operation.Unresolved): xs:anyType stands in, so
// the JSON of that part is passed as naive XML. Blocking while the mapping
// is the auto mapping (a person must look at it); a warning once a person
// has saved a mapping for the operation.
func unresolvedReasons(op *xsd.Operation, m model.Mapping) []Reason {
	severity := "blocking"
	if m.Source == model.MappingManual {
		severity = "warning"
	}
	out := make([]Reason, 0, len(op.Unresolved))
	for _, u := range op.Unresolved {
		r := Reason{Code: ReasonUnresolved, Severity: severity, File: u.File, Line: u.Line,
			Message: u.String() + ": xs:anyType stands in, so this part's JSON is passed as naive XML without a schema; " +
				"fix the WSDL and import it again, or review and save the mapping (PUT /operations/{operationId}/mapping)"}
		if u.Name.Local != "" {
			r.Name = showName(u.Name)
		}
		out = append(out, r)
	}
	return out
}

// showName renders n as {namespace}local, or local without namespace.
func showName(n xmlstream.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + n.Space + "}" + n.Local
}

// contractWarnings lists what makes op's JSON shape less than exact.
func contractWarnings(c shapes, op *xsd.Operation) []Reason {
	var out []Reason
	warn := func(code, msg string) { out = append(out, Reason{Code: code, Severity: "warning", Message: msg}) }
	in, outShape := c.of(op.Input), c.of(op.Output)
	if in.Any() || outShape.Any() {
		warn(ReasonAnyContent, "the contract has xs:any, xs:anyType or xs:anyAttribute content, passed through without a schema")
	}
	if op.Use == xsd.Encoded {
		warn(ReasonRPCEncoded, "the operation is rpc/encoded: SOAP encoding rules (arrays, xsi:type) apply")
	}
	if op.MTOM {
		warn(ReasonMTOM, "the binding uses MTOM/XOP: binary content is base64 in JSON")
	}
	if in.Recursive() || outShape.Recursive() {
		warn(ReasonRecursive, "a type of the contract contains itself (recursive JSON shape)")
	}
	if in.Truncated() || outShape.Truncated() {
		warn(ReasonTruncated, "the contract nests types deeper than 16 levels")
	}
	if op.Output == nil {
		warn(ReasonOneWay, "one-way operation: the REST answer has no body")
	}
	if name := typedHeaderPart(op); name != "" {
		warn(ReasonSOAPHeaders, "soap:header part "+name+" names a type, not an element: it travels in \"$headers\" as the unqualified element <"+
			name+">, a name the binding does not pin down (a backend block of another name is not read back)")
	}
	return out
}

// typedHeaderPart returns the name of the first soap:header part of op
// declared with type= instead of element=, "" when there is none. Header
// parts with an element are carried exactly by "$headers"
// (docs/conversion.md section 12); a typed part has no element name of
// its own (WS-I BP R2205 requires element parts in document-literal
// headers).
func typedHeaderPart(op *xsd.Operation) string {
	for _, msg := range []*xsd.Message{op.Input, op.Output} {
		if msg == nil {
			continue
		}
		for _, p := range msg.Headers {
			if p.Element == nil {
				return p.Name
			}
		}
	}
	return ""
}
