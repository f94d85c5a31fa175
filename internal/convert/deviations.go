package convert

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Deviation is one departure of an XML message from its contract that a
// Lax conversion stepped over: the XML path of the node (as Error.Path)
// and the reason the strict plan refuses it (as Error.Reason).
type Deviation struct {
	Path   string
	Reason string
}

// Deviations collects the deviations of one Lax conversion
// (XMLToJSONNoting), so that a response checked under responseValidation
// "detect" reports every one of them, not only the first the strict plan
// stops at (docs/decisions-validation.md). List holds at most Max entries:
// a response with thousands of stray elements costs only a count past
// them, not a path and a reason each; Found counts every deviation.
type Deviations struct {
	Max   int
	List  []Deviation
	Found int
}

// XMLToJSONNoting is XMLToJSON recording in d what a Lax plan steps over:
// undeclared elements, attributes and text; elements matched by local
// name only; a second occurrence of a single element (skipped); values
// that do not convert (written as null); missing required elements and
// attributes; two branches of a choice; xsi:nil on an element that is not
// nillable; an unknown xsi:type. Facets are not the plan's to check (the
// JSON Schema does). A plan compiled without Lax stops at the first
// deviation with its error, as XMLToJSON does, and records nothing.
func (p *Plan) XMLToJSONNoting(dst []byte, r *xmlstream.Reader, path string, d *Deviations) ([]byte, error) {
	x := x2jPool.Get().(*x2j)
	defer x.release()
	x.p, x.r, x.out, x.base, x.dev = p, r, dst, path, d
	if x.members == nil {
		x.members = new(memberCache)
	}
	if err := x.container(); err != nil {
		return dst, err
	}
	return x.out, nil
}

// deviates counts one deviation of a Lax conversion and reports whether
// it is to be listed (note, noteChild): false without a sink or once Max
// are listed, so that no path or reason is built for it.
func (x *x2j) deviates() bool {
	d := x.dev
	if d == nil {
		return false
	}
	d.Found++
	return len(d.List) < d.Max
}

// note lists a deviation at the current path; deviates said to.
func (x *x2j) note(reason string) {
	x.dev.List = append(x.dev.List, Deviation{Path: xmlPathOf(x.base, x.path), Reason: reason})
}

// noteChild lists a deviation about the child named local of the current
// node; deviates said to.
func (x *x2j) noteChild(local, reason string) {
	x.path = append(x.path, pathSeg{name: local})
	x.note(reason)
	x.path = x.path[:len(x.path)-1]
}

// badValue handles a value that does not convert, whose JSON began at
// out offset n: the conversion's error, or in a Lax conversion a
// deviation with null in the value's place, which keeps the member (and
// an array item's position) while answering nothing the contract does
// not allow for its type.
func (x *x2j) badValue(n int, reason string) error {
	if !x.p.opts.Lax {
		return x.fail(reason)
	}
	if x.deviates() {
		x.note(reason)
	}
	x.out = append(x.out[:n], "null"...)
	return nil
}

// namespaceReason is the deviation of an element matched by local name
// in another namespace than the contract's.
func namespaceReason(found xmlstream.Name, want xmlName) string {
	return "element " + expanded(found.Space, found.Local) + " matched by local name: the contract has " +
		expanded(want.space, want.local)
}
