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
// with newDefs, the newest import of the service's lineage. Additive changes (new
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
		rep.Status, rep.Reason = Untracked, "there is no newer import in the service's WSDL lineage"
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
	d := newDiffer()
	for _, op := range ops {
		oldC := oldIx.Contract(svcName, portName, op)
		newC := newIx.Contract(svcName, portName, op)
		switch {
		case newC == nil:
			rep.Changes = append(rep.Changes, Change{Kind: ChangeOperationRemoved, Breaking: true, Operation: op.SOAPOperationName})
		case oldC != nil:
			rep.Changes = append(rep.Changes, operationDrift(d, op.SOAPOperationName, oldC, newC)...)
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

// maxChangesPerMessage bounds the field changes reported for one message.
const maxChangesPerMessage = 200

// operationDrift compares one operation's old and new contracts.
func operationDrift(d *differ, name string, oldC, newC *xsd.Operation) []Change {
	var out []Change
	diff := func(kind, old, new string) {
		if old != new {
			out = append(out, Change{Kind: kind, Breaking: true, Operation: name, Old: old, New: new})
		}
	}
	diff(ChangeSOAPAction, oldC.SOAPAction, newC.SOAPAction)
	diff(ChangeNamespace, SOAPNamespace(oldC), SOAPNamespace(newC))
	diff(ChangeBinding, StyleName(oldC.Style)+"/"+UseName(oldC.Use), StyleName(newC.Style)+"/"+UseName(newC.Use))
	out = append(out, d.message(name, "request", oldC.Input, newC.Input, true)...)
	out = append(out, d.message(name, "response", oldC.Output, newC.Output, false)...)
	return out
}

// differ compares contract types pairwise, each pair once, so shared and
// recursive types cost their size, not the number of paths through them.
type differ struct {
	oldTypes, newTypes *typeCache
	memo               map[[2]*xsd.Type][]Change
	onStack            map[[2]*xsd.Type]bool
}

func newDiffer() *differ {
	return &differ{oldTypes: newTypeCache(), newTypes: newTypeCache(),
		memo: map[[2]*xsd.Type][]Change{}, onStack: map[[2]*xsd.Type]bool{}}
}

// message compares the fields of one message. Field paths are relative
// to the message root; REQUIRED_FIELD_ADDED counts only when every
// ancestor is required too, and only for requests.
func (d *differ) message(op, msg string, oldM, newM *xsd.Message, request bool) []Change {
	oldS, newS := &Shape{types: d.oldTypes}, &Shape{types: d.newTypes}
	oldS.addMessage(oldM)
	newS.addMessage(newM)
	var out []Change
	for _, c := range d.members(named(oldS.roots), named(newS.roots)) {
		if !request {
			switch c.Kind {
			case ChangeRequiredAdded:
				c.Kind, c.Breaking = ChangeFieldAdded, false
			case ChangeFieldRequired:
				continue
			}
		}
		if len(out) == maxChangesPerMessage {
			break
		}
		c.Operation, c.Message = op, msg
		out = append(out, c)
	}
	return out
}

// named drops the unnamed anchor members.
func named(ms []member) []member {
	out := make([]member, 0, len(ms))
	for _, m := range ms {
		if m.name != "" {
			out = append(out, m)
		}
	}
	return out
}

// members compares two member lists: old order first, then additions.
func (d *differ) members(oldMs, newMs []member) []Change {
	var out []Change
	add := func(kind string, breaking bool, f, o, n string) {
		out = append(out, Change{Kind: kind, Breaking: breaking, Field: f, Old: o, New: n})
	}
	newBy := make(map[string]member, len(newMs))
	for _, m := range newMs {
		newBy[m.name] = m
	}
	oldBy := make(map[string]bool, len(oldMs))
	for _, om := range oldMs {
		oldBy[om.name] = true
		nm, ok := newBy[om.name]
		switch {
		case !ok:
			add(ChangeFieldRemoved, true, om.name, om.simple, "")
			continue
		case nm.simple != om.simple:
			add(ChangeFieldRetyped, true, om.name, om.simple, nm.simple)
			continue
		case nm.repeated != om.repeated:
			add(ChangeFieldRepeated, true, om.name, cardinalityOf(om.repeated), cardinalityOf(nm.repeated))
		case nm.required && !om.required:
			add(ChangeFieldRequired, true, om.name, "optional", "required")
		}
		if om.complex() && nm.complex() {
			for _, c := range d.types(om.typ, nm.typ) {
				c.Field = om.name + "/" + c.Field
				if c.Kind == ChangeRequiredAdded && !nm.required {
					c.Kind, c.Breaking = ChangeFieldAdded, false
				}
				out = append(out, c)
			}
		}
		if len(out) > maxChangesPerMessage {
			return out
		}
	}
	for _, nm := range newMs {
		if oldBy[nm.name] {
			continue
		}
		if nm.required {
			add(ChangeRequiredAdded, true, nm.name, "", nm.simple)
			continue
		}
		add(ChangeFieldAdded, false, nm.name, "", nm.simple)
	}
	return out
}

// types compares the members of an old and a new complex type, once per
// pair; a pair met again inside itself (recursion) counts as equal.
func (d *differ) types(oldT, newT *xsd.Type) []Change {
	k := [2]*xsd.Type{oldT, newT}
	if cs, ok := d.memo[k]; ok {
		return cs
	}
	if d.onStack[k] {
		return nil
	}
	d.onStack[k] = true
	cs := d.members(d.oldTypes.membersOf(oldT), d.newTypes.membersOf(newT))
	delete(d.onStack, k)
	d.memo[k] = cs
	return cs
}

func cardinalityOf(repeated bool) string {
	if repeated {
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
