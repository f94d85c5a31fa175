package convert

import (
	"bytes"
	"slices"
	"sync"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// JSONToXML converts the JSON document in to the XML body content of the
// message and appends it to w: the wrapper element (wrapped and rpc) or the
// part elements (bare). Every namespace the plan uses is declared once on
// each top-level element.
func (p *Plan) JSONToXML(w *xmlstream.Writer, in []byte) error {
	j := getJ2X(p, w)
	defer putJ2X(j)
	if err := j.t.build(in, true); err != nil {
		return err
	}
	return j.root()
}

var j2xPool = sync.Pool{New: func() any {
	return &j2x{t: tapePool.Get().(*tape)}
}}

// getJ2X returns pooled conversion state, keeping its buffers.
func getJ2X(p *Plan, w *xmlstream.Writer) *j2x {
	j := j2xPool.Get().(*j2x)
	j.p, j.w = p, w
	j.path, j.slots, j.buf, j.qn = j.path[:0], j.slots[:0], j.buf[:0], 0
	return j
}

func putJ2X(j *j2x) {
	j.p, j.w = nil, nil
	j.t.in = nil
	if cap(j.t.toks) > 1<<20 {
		j.t.toks = nil // do not pin huge documents' tapes
	}
	j2xPool.Put(j)
}

// j2x is the state of one JSON→XML conversion.
type j2x struct {
	p     *Plan
	t     *tape
	w     *xmlstream.Writer
	path  []pathSeg
	slots []int32
	buf   []byte
	qn    int // QName namespace declarations made so far
}

func (j *j2x) fail(reason string) error {
	return &Error{Pointer: pointerOf(j.path), Reason: reason}
}

func (j *j2x) root() error {
	if j.t.toks[0].kind != '{' {
		return j.fail("expected a JSON object")
	}
	p := j.p
	if p.wrapper == nil {
		return j.content(p.root, 0, true)
	}
	j.w.Start(p.wrapper.prefix, p.wrapper.local)
	j.declare()
	if err := j.object(p.root, 0); err != nil {
		return err
	}
	j.w.End(p.wrapper.prefix, p.wrapper.local)
	return nil
}

func (j *j2x) declare() {
	if j.p.opts.OmitDeclarations {
		return
	}
	for _, b := range j.p.ns {
		j.w.NSDecl(b.Prefix, b.URI)
	}
}

// object writes the attributes and content of an element of type tp whose
// start tag is open, from the JSON object at tape index i.
func (j *j2x) object(tp *typePlan, i int) error {
	chosen, explicit := tp, false
	if tp.hierarchy || tp.derived != nil || tp.abstract {
		var err error
		if chosen, explicit, err = j.derivedType(tp, i); err != nil {
			return err
		}
	}
	if j.p.opts.Encoded || explicit {
		j.writeXSIType(chosen)
	}
	return j.content(chosen, i, false)
}

func (j *j2x) writeXSIType(tp *typePlan) {
	if tp.typeName.local == "" {
		return
	}
	j.w.Attr("xsi", "type", qname(tp.typeName))
}

func qname(n xmlName) string {
	if n.prefix == "" {
		return n.local
	}
	return n.prefix + ":" + n.local
}

// derivedType resolves the "$type" member of the object at i: a derived
// type or the declared type itself (explicit is then true).
func (j *j2x) derivedType(tp *typePlan, i int) (*typePlan, bool, error) {
	end := j.t.skip(i)
	for k := i + 1; k < end; k = j.t.skip(k + 1) {
		if string(j.t.view(k)) != "$type" {
			continue
		}
		j.path = append(j.path, pathSeg{name: "$type"})
		if j.t.toks[k+1].kind != '"' {
			return nil, false, j.fail("expected a string naming a derived type")
		}
		name := string(j.t.view(k + 1))
		d, ok := tp.derived[name]
		if !ok && tp.typeName.local == name {
			d, ok = tp, true
		}
		if !ok {
			return nil, false, j.fail("unknown derived type " + quote(name))
		}
		j.path = j.path[:len(j.path)-1]
		return d, true, nil
	}
	if tp.abstract {
		return nil, false, j.fail("abstract type: a \"$type\" member is required")
	}
	return tp, false, nil
}

// checkDuplicate refuses an anyAttribute member already seen.
func (j *j2x) checkDuplicate(seen []int, name []byte) error {
	for _, k := range seen {
		if string(j.t.view(k)) == string(name) {
			j.path = append(j.path, pathSeg{name: string(name)})
			return j.fail("invalid JSON: duplicate object member name")
		}
	}
	return nil
}

// ownType checks a "$type" member of an object whose type was already
// chosen: it must name that type.
func (j *j2x) ownType(tp *typePlan, at int) error {
	name := ""
	if j.t.toks[at].kind == '"' {
		name = string(j.t.view(at))
	}
	if name != "" && name == tp.typeName.local {
		return nil
	}
	if _, ok := tp.derived[name]; ok && name != "" {
		return nil // resolved by derivedType
	}
	j.path = append(j.path, pathSeg{name: "$type"})
	return j.fail("unknown derived type " + quote(name))
}

// content writes attributes (unless top) and child elements of tp from the
// JSON object at i, in schema order.
func (j *j2x) content(tp *typePlan, i int, top bool) error {
	base := len(j.slots)
	n := len(tp.members) + len(tp.attrs) + 3 // +$value, +$xml, +$type
	j.slots = slices.Grow(j.slots, n)[:base+n]
	for k := base; k < base+n; k++ {
		j.slots[k] = -1
	}
	defer func() { j.slots = j.slots[:base] }()
	valueSlot := base + len(tp.members) + len(tp.attrs)
	xmlSlot, typeSlot := valueSlot+1, valueSlot+2
	end := j.t.skip(i)
	var anyAttrs []int
	next := 0 // the member expected next when members come in schema order
	for k := i + 1; k < end; k = j.t.skip(k + 1) {
		name := j.t.view(k)
		slot := -1
		// Member names never start with '@', so a match is the member
		// byJSON maps the name to; checking it first saves the lookup.
		if next < len(tp.members) && string(name) == tp.members[next].json && (len(name) == 0 || name[0] != '@') {
			slot = base + next
			next++
		} else if idx, ok := tp.byJSON[string(name)]; ok {
			slot = base + idx
			if idx < 0 {
				slot = base + len(tp.members) + ^idx
			} else {
				next = idx + 1
			}
		} else {
			switch {
			case string(name) == "$type":
				if err := j.ownType(tp, k+1); err != nil {
					return err
				}
				slot = typeSlot
			case string(name) == "$value" && (tp.simple != nil && !tp.scalar || tp.mixed):
				slot = valueSlot
			case string(name) == "$xml" && tp.wildcard:
				slot = xmlSlot
			case len(name) > 1 && name[0] == '@' && tp.anyAttr:
				if err := j.checkDuplicate(anyAttrs, name); err != nil {
					return err
				}
				anyAttrs = append(anyAttrs, k)
				continue
			default:
				j.path = append(j.path, pathSeg{name: string(name)})
				return j.fail("unknown member " + quote(string(name)))
			}
		}
		// The decoder allows duplicate names (cheaper); a member set twice
		// is refused here, where the slots make it free.
		if j.slots[slot] >= 0 {
			j.path = append(j.path, pathSeg{name: string(name)})
			return j.fail("invalid JSON: duplicate object member name")
		}
		j.slots[slot] = int32(k + 1)
	}
	if !top {
		if err := j.attributes(tp, base, anyAttrs); err != nil {
			return err
		}
	}
	if tp.simple != nil && !tp.scalar {
		return j.simpleContent(tp, int(j.slots[valueSlot]))
	}
	if tp.mixed {
		if err := j.simpleContent(tp, int(j.slots[valueSlot])); err != nil {
			return err
		}
	}
	if err := j.checkChoices(tp, base); err != nil {
		return err
	}
	for m := 0; m < len(tp.members); m++ {
		if m == tp.wildcardAt {
			if err := j.rawXML(int(j.slots[xmlSlot])); err != nil {
				return err
			}
		}
		if end, ok := tp.interleaved[m]; ok {
			if err := j.interleave(tp, m, end, base); err != nil {
				return err
			}
			m = end - 1
			continue
		}
		if err := j.member(tp, tp.members[m], m, base); err != nil {
			return err
		}
		if max := j.p.opts.MaxOutput; max > 0 && j.w.Len() > max {
			return j.fail("the converted XML exceeds " + itoa(max) + " bytes")
		}
	}
	if tp.wildcardAt == len(tp.members) {
		return j.rawXML(int(j.slots[xmlSlot]))
	}
	return nil
}

// member writes the elements of member m from its slot.
func (j *j2x) member(tp *typePlan, mp *memberPlan, m, base int) error {
	at := int(j.slots[base+m])
	if !j.memberPresent(mp, at) && mp.required && !j.groupPresent(tp, m, base) {
		if at >= 0 {
			j.path = append(j.path, pathSeg{name: mp.json})
			return j.fail("at least " + itoa(mp.minItems) + " item(s) required")
		}
		return j.fail("missing required member " + quote(mp.json) + j.groupNote(tp, m))
	}
	if at < 0 {
		if mp.required && !j.groupPresent(tp, m, base) {
			return j.fail("missing required member " + quote(mp.json))
		}
		return nil
	}
	j.path = append(j.path, pathSeg{name: mp.json})
	defer func() { j.path = j.path[:len(j.path)-1] }()
	if mp.elem != nil && mp.elem.Abstract && j.memberPresent(mp, at) {
		return j.fail("abstract element: use a member of its substitution group")
	}
	if !mp.repeated {
		return j.element(mp, at, true)
	}
	if j.t.toks[at].kind != '[' {
		return j.fail("expected an array (the element repeats)")
	}
	end := j.t.skip(at)
	count := 0
	for k := at + 1; k < end; k = j.t.skip(k) {
		j.path = append(j.path, pathSeg{index: count})
		if err := j.element(mp, k, false); err != nil {
			return err
		}
		j.path = j.path[:len(j.path)-1]
		count++
	}
	if mp.maxItems > 0 && count > mp.maxItems {
		return j.fail(itoa(count) + " items exceed maxOccurs " + itoa(mp.maxItems))
	}
	if count < mp.minItems && !j.groupPresent(tp, m, base) {
		return j.fail(itoa(count) + " items are fewer than minOccurs " + itoa(mp.minItems))
	}
	return nil
}

// groupNote names the substitution group of member m in an error.
func (j *j2x) groupNote(tp *typePlan, m int) string {
	var names []string
	for _, mp := range tp.members {
		if mp.group == m {
			names = append(names, quote(mp.json))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (or its substitute " + joinNames(names) + ")"
}

// groupPresent reports whether a substitute of the required member m is
// present instead of it.
func (j *j2x) groupPresent(tp *typePlan, m, base int) bool {
	for k, mp := range tp.members {
		if mp.group == m && j.memberPresent(mp, int(j.slots[base+k])) {
			return true
		}
	}
	return false
}

func (j *j2x) checkChoices(tp *typePlan, base int) error {
	xmlSlot := base + len(tp.members) + len(tp.attrs) + 1
	for _, cc := range tp.choices {
		present := 0
		var names []string
		if cc.wildcard {
			if at := int(j.slots[xmlSlot]); at >= 0 && len(bytes.TrimSpace(j.t.view(at))) > 0 {
				present++
			}
			names = append(names, `"$xml"`)
		}
		for _, br := range cc.branches {
			for m := br[0]; m < br[1]; m++ {
				if j.memberPresent(tp.members[m], int(j.slots[base+m])) {
					present++
					break
				}
			}
			if br[1] > br[0] {
				names = append(names, quote(tp.members[br[0]].json))
			}
		}
		switch {
		case present > 1:
			return j.fail("choice: only one of " + joinNames(names) + " may be present")
		case present == 0 && !cc.optional:
			return j.fail("choice: one of " + joinNames(names) + " is required")
		}
	}
	return nil
}

// memberPresent reports whether a member counts as present for a choice:
// an empty array does not.
func (j *j2x) memberPresent(mp *memberPlan, at int) bool {
	if at < 0 {
		return false
	}
	if mp.repeated && j.t.toks[at].kind == '[' {
		return int(j.t.toks[at].end) > at+1
	}
	return true
}

// element writes one element of member mp from the JSON value at i.
func (j *j2x) element(mp *memberPlan, i int, single bool) error {
	tk := j.t.toks[i]
	tp := mp.typ
	w := j.w
	if tk.kind == 'n' {
		if !mp.nillable {
			return j.fail("null is not allowed: the element is not nillable")
		}
		j.start(mp)
		w.Attr("xsi", "nil", "true")
		w.End(mp.name.prefix, mp.name.local)
		return nil
	}
	switch {
	case tp.anyType:
		j.start(mp)
		if err := j.naiveValue(i); err != nil {
			return err
		}
	case tp.arrayItem != nil:
		return j.encodedArray(mp, i)
	case tp.scalar:
		j.start(mp)
		if j.p.opts.Encoded {
			j.writeXSIType(tp)
		}
		text, err := j.valueText(&tp.text, tp.simple, i)
		if err != nil {
			return err
		}
		w.TextBytes(text)
	default:
		if tk.kind != '{' {
			return j.fail("expected an object")
		}
		j.start(mp)
		if err := j.object(tp, i); err != nil {
			return err
		}
	}
	w.End(mp.name.prefix, mp.name.local)
	return nil
}

// start opens the element of mp; the part elements of a bare message
// declare the plan's namespaces.
func (j *j2x) start(mp *memberPlan) {
	j.w.Start(mp.name.prefix, mp.name.local)
	if j.p.wrapper == nil && len(j.path) == 1 {
		j.declare()
	}
}
