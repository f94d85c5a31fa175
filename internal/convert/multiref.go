package convert

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// SOAP 1.1 encoding lets an element carry href="#id" and its value sit in
// a separate element with id="id" after the operation element (multiRef,
// as Apache Axis 1 writes). The converter keeps a placeholder position for
// each reference, captures the identified elements as self-contained
// fragments, and splices their converted values in at the end.

// pendingRef is an href waiting for its value.
type pendingRef struct {
	pos  int
	id   string
	mp   *memberPlan
	path string
}

// Bounds on reference resolution: nesting depth (which also breaks
// cycles), number of resolutions and output size, so that references to
// references cannot expand like an entity bomb.
const (
	maxRefDepth   = 32
	maxRefCount   = 10000
	maxRefOutSize = 64 << 20
)

func attrValue(tok xmlstream.Token, space, local string) string {
	for _, a := range tok.Attrs {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value
		}
	}
	return ""
}

// reference handles an element with href="#id": resolved at once when the
// value is known (inside a multiRef), else later.
func (x *x2j) reference(mp *memberPlan, id string) error {
	if err := x.r.Skip(); err != nil {
		return x.readErr(err)
	}
	if frag, ok := x.refs[id]; ok {
		return x.convertRef(mp, id, frag, xmlPathOf(x.base, x.path))
	}
	x.pending = append(x.pending, pendingRef{pos: len(x.out), id: id, mp: mp, path: xmlPathOf(x.base, x.path)})
	return nil
}

// captureRef stores the multiRef element tok (just started) by id.
func (x *x2j) captureRef(id string, tok xmlstream.Token) error {
	frag, err := AppendSubtree(nil, x.r, tok)
	if err != nil {
		return x.readErr(err)
	}
	if x.refs == nil {
		x.refs = map[string][]byte{}
	}
	x.refs[id] = frag
	return nil
}

// resolvePending splices the referenced values in, last position first so
// that earlier positions stay valid.
func (x *x2j) resolvePending() error {
	pend := x.pending
	x.pending = nil
	for i := len(pend) - 1; i >= 0; i-- {
		pr := pend[i]
		frag, ok := x.refs[pr.id]
		if !ok {
			return &Error{Path: pr.path, Reason: "href=\"#" + pr.id + "\" references no element"}
		}
		tail := append([]byte(nil), x.out[pr.pos:]...)
		x.out = x.out[:pr.pos]
		if err := x.convertRef(pr.mp, pr.id, frag, pr.path); err != nil {
			return err
		}
		x.out = append(x.out, tail...)
	}
	return nil
}

// convertRef converts the multiRef fragment as the value of member mp,
// appending to x.out.
func (x *x2j) convertRef(mp *memberPlan, id string, frag []byte, base string) error {
	if x.refDepth >= maxRefDepth {
		return x.fail("href=\"#" + id + "\": references nested too deeply or cyclic")
	}
	if x.refCount == nil {
		x.refCount = new(int)
	}
	if *x.refCount++; *x.refCount > maxRefCount {
		return x.fail("more than " + itoa(maxRefCount) + " href references")
	}
	r := xmlstream.NewReader(frag, xmlstream.Limits{})
	tok, err := firstStart(r)
	if err != nil {
		return x.readErr(err)
	}
	sub := &x2j{p: x.p, r: r, out: x.out, base: base, refs: x.refs, refDepth: x.refDepth + 1, refCount: x.refCount, members: x.members}
	if err := sub.element(mp, &tok); err != nil {
		return err
	}
	if len(sub.out) > maxRefOutSize {
		return x.fail("href references expand the output beyond " + itoa(maxRefOutSize>>20) + " MB")
	}
	x.out = sub.out
	return nil
}
