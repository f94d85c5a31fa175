package convert

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// contentFrame is the state of one object's element content.
type contentFrame struct {
	tp      *typePlan
	cbase   int  // first count of this frame in x.counts
	sbase   int  // first span of this frame in x.spans
	start   int  // output offset where the content members begin
	hadPrev bool // members were written before start
	prev    bool // a member has been written
	cur     int  // member whose value (or array) is open, -1 for none
	reorder bool // a member reappeared after another one: regroup at the end
	frag    []byte
	text    []byte // text of mixed content
}

// objectContent writes the members of tp's element content, reading
// through the end tag of the element. prev tells whether members were
// already written in the object.
func (x *x2j) objectContent(tp *typePlan, prev bool) error {
	f := contentFrame{tp: tp, cbase: len(x.counts), sbase: len(x.spans), start: len(x.out), hadPrev: prev, prev: prev, cur: -1}
	for range tp.members {
		x.counts = append(x.counts, 0)
	}
	defer func() { x.counts, x.spans = x.counts[:f.cbase], x.spans[:f.sbase] }()
	var tok xmlstream.Token
	for {
		if err := x.r.ReadToken(&tok); err != nil {
			return x.readErr(err)
		}
		switch tok.Kind {
		case xmlstream.EndElement:
			return x.finishContent(&f)
		case xmlstream.CharData:
			if tp.mixed {
				f.text = append(f.text, tok.Data...)
				continue
			}
			if !x.p.opts.Lax {
				if !isBlank(tok.Data) {
					return x.fail("unexpected text " + quote(clip(tok.Data)))
				}
			} else if x.dev != nil && !isBlank(tok.Data) && x.deviates() {
				x.note("unexpected text " + quote(clip(tok.Data)))
			}
		case xmlstream.StartElement:
			if err := x.child(&f, &tok); err != nil {
				return err
			}
		}
	}
}

// child writes one child element of the content in f.
func (x *x2j) child(f *contentFrame, tok *xmlstream.Token) error {
	tp := f.tp
	// Elements mostly come in schema order: try the open member (an array
	// item again) and the next one before hashing the name.
	// A name seen before in this type resolves through the member cache,
	// by pointer comparison (tojson_names.go).
	idx, ok := x.members.lookup(tp, tok.Name)
	if !ok {
		if idx, ok = tp.inOrder(f.cur, tok.Name); !ok {
			idx, ok = tp.byXML[tok.Name]
		}
		if ok {
			x.members.store(tp, tok.Name, idx)
		}
	}
	if !ok && (x.p.rpc && tp == x.p.root || x.p.opts.Encoded || x.p.opts.Lax) {
		// rpc parts match by local name. So do the members of SOAP-encoded
		// structs: SOAP 1.1 section 5 makes them unqualified, but widely
		// used stacks (Perl SOAP::Lite, PHP ext/soap) qualify them through
		// a default namespace and other clients read them. Lax mode also
		// tolerates elements qualified differently from the schema (a
		// common backend mistake), a deviation. Literal content stays strict.
		idx, ok = tp.byLocal(tok.Name.Local)
		if ok && !(x.p.rpc && tp == x.p.root || x.p.opts.Encoded) && x.deviates() {
			x.noteChild(tok.Name.Local, namespaceReason(tok.Name, tp.members[idx].name))
		}
	}
	if !ok && x.p.rpc && tp == x.p.root && tok.Name.Space == nsSOAP12RPC {
		// SOAP 1.2 rpc:result names the return part; the part itself follows.
		if err := x.r.Skip(); err != nil {
			return x.readErr(err)
		}
		return nil
	}
	if !ok {
		switch {
		case tp.wildcard:
			var err error
			f.frag, err = x.capture(f.frag, *tok)
			return err
		case x.p.opts.Lax || x.p.headers && tp == x.p.root:
			if !(x.p.headers && tp == x.p.root) && x.deviates() {
				x.noteChild(tok.Name.Local, "unknown element "+expanded(tok.Name.Space, tok.Name.Local))
			}
			if err := x.r.Skip(); err != nil {
				return x.readErr(err)
			}
			return nil
		}
		return x.failChild(tok.Name.Local, "unknown element "+expanded(tok.Name.Space, tok.Name.Local))
	}
	mp := tp.members[idx]
	if mp.abstract {
		if !x.p.opts.Lax {
			return x.failChild(tok.Name.Local, "abstract element "+tok.Name.Local+" cannot appear")
		}
		if x.deviates() {
			x.noteChild(tok.Name.Local, "abstract element "+tok.Name.Local+" cannot appear")
		}
	}
	count := x.counts[f.cbase+idx]
	if count > 0 && !mp.repeated {
		return x.repeatedSingle(tok)
	}
	if idx == f.cur {
		x.out = append(x.out, ',')
	} else {
		x.closeArray(f)
		if count > 0 {
			f.reorder = true
		}
		if f.prev {
			x.out = append(x.out, ',')
		}
		f.prev = true
		x.out = append(x.out, mp.key...)
		if mp.repeated {
			x.out = append(x.out, '[')
		}
		f.cur = idx
	}
	count++
	x.counts[f.cbase+idx] = count
	seg := pathSeg{name: tok.Name.Local}
	if mp.repeated {
		seg.index = int(count)
	}
	start := len(x.out)
	if len(tok.Attrs) == 0 && mp.typ.scalar && mp.typ.text.kind != textGeneric {
		if err := x.leafChild(mp, seg); err != nil {
			return err
		}
	} else {
		x.path = append(x.path, seg)
		if err := x.element(mp, tok); err != nil {
			return err
		}
		x.path = x.path[:len(x.path)-1]
	}
	if !tp.fixedOrder {
		x.spans = append(x.spans, span{member: int32(idx), start: int32(start), end: int32(len(x.out))})
	}
	if max := x.p.opts.MaxOutput; max > 0 && len(x.out) > max {
		return x.fail("the converted JSON exceeds " + itoa(max) + " bytes")
	}
	return nil
}

func (x *x2j) closeArray(f *contentFrame) {
	if f.cur >= 0 && f.tp.members[f.cur].repeated {
		x.out = append(x.out, ']')
	}
	f.cur = -1
}

// byLocal finds a member by local name only (rpc parts).
func (tp *typePlan) byLocal(local string) (int, bool) {
	for i, m := range tp.members {
		if m.name.local == local {
			return i, true
		}
	}
	return 0, false
}

// finishContent closes the content: regroups reappearing members, writes
// [] for absent repeated members, checks required ones and adds "$xml".
func (x *x2j) finishContent(f *contentFrame) error {
	x.closeArray(f)
	tp := f.tp
	if f.reorder {
		for _, pr := range x.pending {
			if pr.pos >= f.start {
				return x.fail("href references inside regrouped repeated elements are not supported")
			}
		}
		x.regroup(f)
	}
	for i, mp := range tp.members {
		if x.counts[f.cbase+i] > 0 {
			continue
		}
		if mp.repeated {
			if mp.elem != nil && mp.elem.Abstract {
				continue // never present: its substitutes stand for it
			}
			if f.prev {
				x.out = append(x.out, ',')
			}
			f.prev = true
			x.out = appendQuotedString(x.out, mp.json)
			x.out = append(x.out, ":[]"...)
			continue
		}
		if mp.required && (!x.p.opts.Lax || x.dev != nil) && !x.substituted(f, i) && mp.minItems > 0 {
			if !x.p.opts.Lax {
				return x.failChild(mp.name.local, "missing required element "+mp.name.local)
			}
			if x.deviates() {
				x.noteChild(mp.name.local, "missing required element "+mp.name.local)
			}
		}
	}
	if err := x.checkChoices(f); err != nil {
		return err
	}
	if text := trimXML(f.text); len(text) > 0 {
		if f.prev {
			x.out = append(x.out, ',')
		}
		f.prev = true
		x.out = append(x.out, `"$value":`...)
		x.out = appendQuoted(x.out, text)
	}
	if f.frag != nil {
		if f.prev {
			x.out = append(x.out, ',')
		}
		x.out = append(x.out, `"$xml":`...)
		x.out = appendQuoted(x.out, f.frag)
	}
	return nil
}

func (x *x2j) substituted(f *contentFrame, m int) bool {
	for k, mp := range f.tp.members {
		if mp.group == m && x.counts[f.cbase+k] > 0 {
			return true
		}
	}
	return false
}

// repeatedSingle handles a second occurrence of an element that is not
// repeated: an error, or in a Lax conversion a deviation skipped (the
// first occurrence is the member's value).
func (x *x2j) repeatedSingle(tok *xmlstream.Token) error {
	if !x.p.opts.Lax {
		return x.failChild(tok.Name.Local, "element "+tok.Name.Local+" must not repeat")
	}
	if x.deviates() {
		x.noteChild(tok.Name.Local, "element "+tok.Name.Local+" must not repeat")
	}
	if err := x.r.Skip(); err != nil {
		return x.readErr(err)
	}
	return nil
}

// regroup rewrites the content members in schema order, each member's
// values together, when a member reappeared after another one.
func (x *x2j) regroup(f *contentFrame) {
	region := append([]byte(nil), x.out[f.start:]...)
	spans := x.spans[f.sbase:]
	x.out = x.out[:f.start]
	prev := f.hadPrev
	for i, mp := range f.tp.members {
		if x.counts[f.cbase+i] == 0 {
			continue
		}
		if prev {
			x.out = append(x.out, ',')
		}
		prev = true
		x.out = appendQuotedString(x.out, mp.json)
		x.out = append(x.out, ':')
		if mp.repeated {
			x.out = append(x.out, '[')
		}
		n := 0
		for _, s := range spans {
			if int(s.member) != i {
				continue
			}
			if n > 0 {
				x.out = append(x.out, ',')
			}
			n++
			x.out = append(x.out, region[int(s.start)-f.start:int(s.end)-f.start]...)
		}
		if mp.repeated {
			x.out = append(x.out, ']')
		}
	}
	f.prev = prev
}

// checkChoices refuses content with more than one branch of a choice
// (a deviation in a Lax conversion).
func (x *x2j) checkChoices(f *contentFrame) error {
	if x.p.opts.Lax && x.dev == nil {
		return nil
	}
	for _, cc := range f.tp.choices {
		present, first, second := 0, "", ""
		for _, br := range cc.branches {
			for m := br[0]; m < br[1]; m++ {
				if x.counts[f.cbase+m] > 0 {
					present++
					if present == 1 {
						first = f.tp.members[m].name.local
					} else {
						second = f.tp.members[m].name.local
					}
					break
				}
			}
		}
		if present > 1 {
			if !x.p.opts.Lax {
				return x.fail("choice: " + first + " and " + second + " cannot both be present")
			}
			if x.deviates() {
				x.note("choice: " + first + " and " + second + " cannot both be present")
			}
		}
	}
	return nil
}

// inOrder is the member named n among the members cur and cur+1 (cur may
// be -1), as byXML would find it. A name matches at most one member that
// is not shadowed, so the likelier one is tried first: cur again when it
// repeats, else the next one.
func (tp *typePlan) inOrder(cur int, n xmlstream.Name) (int, bool) {
	first, second := cur+1, cur
	if cur >= 0 && tp.members[cur].repeated {
		first, second = cur, cur+1
	}
	if tp.matches(first, n) {
		return first, true
	}
	if tp.matches(second, n) {
		return second, true
	}
	return 0, false
}

// matches reports whether member i exists, is not shadowed and is named n.
func (tp *typePlan) matches(i int, n xmlstream.Name) bool {
	if i < 0 || i >= len(tp.members) {
		return false
	}
	m := tp.members[i]
	return !m.shadowed && m.name.local == n.Local && m.name.space == n.Space
}
