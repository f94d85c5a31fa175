package catalog

import (
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// WSDL drift statuses (SPEC 3.3).
const (
	UpToDate      = "UP_TO_DATE"
	DriftDetected = "DRIFT_DETECTED"
	BreakingDrift = "BREAKING_DRIFT"
	Untracked     = "UNTRACKED"
)

// Drift change kinds.
const (
	ChangeOperationAdded   = "OPERATION_ADDED"
	ChangeOperationRemoved = "OPERATION_REMOVED"
	ChangeSOAPAction       = "SOAP_ACTION_CHANGED"
	ChangeNamespace        = "NAMESPACE_CHANGED"
	ChangeBinding          = "BINDING_STYLE_CHANGED"
	ChangeFieldAdded       = "FIELD_ADDED"
	ChangeRequiredAdded    = "REQUIRED_FIELD_ADDED"
	ChangeFieldRemoved     = "FIELD_REMOVED"
	ChangeFieldRetyped     = "FIELD_RETYPED"
	ChangeFieldRequired    = "FIELD_NOW_REQUIRED"
	ChangeFieldRepeated    = "FIELD_CARDINALITY_CHANGED"
)

// Change is one difference between the version's contract and a newer
// import.
type Change struct {
	Kind      string `json:"kind"`
	Breaking  bool   `json:"breaking"`
	Operation string `json:"operation"` // SOAP operation name
	Message   string `json:"message"`   // "request" or "response" for field changes
	Field     string `json:"field,omitempty"`
	Old       string `json:"old,omitempty"`
	New       string `json:"new,omitempty"`
}

// DriftReport is the drift of a version against a newer import.
type DriftReport struct {
	Status  string   `json:"status"`
	Reason  string   `json:"reason,omitempty"` // why UNTRACKED
	Changes []Change `json:"changes"`
}

// Drift compares the contracts of the version's operations (ops, matched
// by SOAP operation name and version) in oldDefs, the version's import,
// with newDefs, the newest comparable import. Additive changes (new
// operations, new optional request fields, new response fields) are
// DRIFT_DETECTED; removed operations or fields, retyped fields, new
// required request fields, fields becoming required, cardinality changes
// and changed SOAP actions, namespaces or binding styles are BREAKING_DRIFT.
// Either definitions nil is UNTRACKED.
func Drift(oldDefs, newDefs *wsdl.Definitions, ops []model.Operation) DriftReport {
	rep := DriftReport{Changes: []Change{}}
	switch {
	case oldDefs == nil:
		rep.Status, rep.Reason = Untracked, "the version has no WSDL import"
		return rep
	case newDefs == nil:
		rep.Status, rep.Reason = Untracked, "there is no comparable newer import"
		return rep
	}
	soapVersion := ""
	have := map[string]bool{}
	for _, op := range ops {
		have[op.SOAPOperationName] = true
		soapVersion = op.SOAPVersion
	}
	svcName, portName := portOf(oldDefs, have)
	oldIx, newIx := NewContractIndex(oldDefs), NewContractIndex(newDefs)
	for _, op := range ops {
		oldC := oldIx.Contract(svcName, portName, op)
		newC := newIx.Contract(svcName, portName, op)
		switch {
		case newC == nil:
			rep.Changes = append(rep.Changes, Change{Kind: ChangeOperationRemoved, Breaking: true, Operation: op.SOAPOperationName})
		case oldC != nil:
			rep.Changes = append(rep.Changes, operationDrift(op.SOAPOperationName, oldC, newC)...)
		}
	}
	seen := map[string]bool{}
	for _, c := range addedCandidates(newDefs, svcName, portName, soapVersion) {
		if have[c] || seen[c] {
			continue
		}
		seen[c] = true
		rep.Changes = append(rep.Changes, Change{Kind: ChangeOperationAdded, Operation: c})
	}
	rep.Status = UpToDate
	for _, c := range rep.Changes {
		if c.Breaking {
			rep.Status = BreakingDrift
			break
		}
		rep.Status = DriftDetected
	}
	return rep
}

// operationDrift compares one operation's old and new contracts.
func operationDrift(name string, oldC, newC *xsd.Operation) []Change {
	var out []Change
	diff := func(kind, old, new string) {
		if old != new {
			out = append(out, Change{Kind: kind, Breaking: true, Operation: name, Old: old, New: new})
		}
	}
	diff(ChangeSOAPAction, oldC.SOAPAction, newC.SOAPAction)
	diff(ChangeNamespace, SOAPNamespace(oldC), SOAPNamespace(newC))
	diff(ChangeBinding, StyleName(oldC.Style)+"/"+UseName(oldC.Use), StyleName(newC.Style)+"/"+UseName(newC.Use))
	out = append(out, shapeDrift(name, "request", MessageShape(oldC.Input), MessageShape(newC.Input), true)...)
	out = append(out, shapeDrift(name, "response", MessageShape(oldC.Output), MessageShape(newC.Output), false)...)
	return out
}

// shapeDrift compares the fields of one message.
func shapeDrift(op, msg string, old, new *Shape, request bool) []Change {
	var out []Change
	add := func(kind string, breaking bool, f, o, n string) {
		out = append(out, Change{Kind: kind, Breaking: breaking, Operation: op, Message: msg, Field: f, Old: o, New: n})
	}
	for _, of := range old.Fields() {
		nf, ok := new.Field(of.Path)
		switch {
		case !ok:
			add(ChangeFieldRemoved, true, of.Path, of.Type, "")
		case nf.Type != of.Type:
			add(ChangeFieldRetyped, true, of.Path, of.Type, nf.Type)
		case nf.Repeated != of.Repeated:
			add(ChangeFieldRepeated, true, of.Path, cardinality(of), cardinality(nf))
		case request && nf.Required && !of.Required:
			add(ChangeFieldRequired, true, of.Path, "optional", "required")
		}
	}
	for _, nf := range new.Fields() {
		if old.Has(nf.Path) {
			continue
		}
		if request && nf.Required && requiredChain(new, nf.Path) {
			add(ChangeRequiredAdded, true, nf.Path, "", nf.Type)
			continue
		}
		add(ChangeFieldAdded, false, nf.Path, "", nf.Type)
	}
	return out
}

// requiredChain reports whether path and every ancestor are required, so a
// client that sent the old request now misses it.
func requiredChain(s *Shape, path string) bool {
	for p := path; p != ""; p = parentOf(p) {
		f, ok := s.Field(p)
		if !ok || !f.Required {
			return false
		}
	}
	return true
}

func cardinality(f Field) string {
	if f.Repeated {
		return "array"
	}
	return "single"
}

// addedCandidates lists the operation names of the newer import's port
// with the given service and port name (the old import's port binding
// most of the version's operations), else of every port of the version's
// SOAP version.
func addedCandidates(newDefs *wsdl.Definitions, svcName, portName, soapVersion string) []string {
	var names []string
	for _, s := range newDefs.Services {
		for _, p := range s.Ports {
			if s.Name == svcName && p.Name == portName {
				names = names[:0]
				for _, c := range p.Operations {
					names = append(names, c.Name)
				}
				return names
			}
			if soapVersion != "" && p.SOAPVersion != soapVersion {
				continue
			}
			for _, c := range p.Operations {
				names = append(names, c.Name)
			}
		}
	}
	return names
}

// portOf returns the service and port of defs that bind the most of the
// named operations.
func portOf(defs *wsdl.Definitions, names map[string]bool) (string, string) {
	best, svcName, portName := 0, "", ""
	for _, s := range defs.Services {
		for _, p := range s.Ports {
			n := 0
			for _, c := range p.Operations {
				if names[c.Name] {
					n++
				}
			}
			if n > best {
				best, svcName, portName = n, s.Name, p.Name
			}
		}
	}
	return svcName, portName
}
