package xmlstream

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUndeclaredPrefix is wrapped by ResolveQName errors for a prefix that
// has no namespace binding in scope.
var ErrUndeclaredPrefix = errors.New("undeclared namespace prefix")

// ErrInvalidQName is wrapped by ResolveQName errors for a value that is
// not a QName.
var ErrInvalidQName = errors.New("invalid QName")

// binding is one namespace declaration in scope. prev is the index of the
// binding of the same prefix it hides, or -1; it is kept only while
// Reader.nsIndex exists.
type binding struct {
	prefix, uri string
	prev        int
}

// nsLinearMax is the number of bindings in scope up to which lookups scan
// the stack; beyond it Reader.nsIndex maps each prefix to its binding, so
// hostile documents with thousands of declarations stay linear.
const nsLinearMax = 32

// maxBindings caps the namespace declarations in scope at once.
const maxBindings = 4096

// declare records a namespace declaration attribute, enforcing the rules
// of Namespaces in XML 1.0.
func (r *Reader) declare(a rawAttr) error {
	prefix := a.q.local
	if a.q.prefix == "" {
		prefix = ""
	}
	switch {
	case prefix == "xmlns":
		return r.errAt(a.off, "the prefix xmlns cannot be declared")
	case prefix == "xml" && a.value != NSXML:
		return r.errAt(a.off, "the prefix xml can only be bound to %s", NSXML)
	case prefix != "xml" && a.value == NSXML:
		return r.errAt(a.off, "only the prefix xml can be bound to %s", NSXML)
	case a.value == NSXMLNS:
		return r.errAt(a.off, "no prefix can be bound to %s", NSXMLNS)
	case prefix != "" && a.value == "":
		return r.errAt(a.off, "xmlns:%s=\"\" cannot undeclare a prefix in XML 1.0", prefix)
	}
	if len(r.ns) >= maxBindings {
		return r.errAt(a.off, "namespace declaration limit %d exceeded", maxBindings)
	}
	r.ns = append(r.ns, binding{prefix: prefix, uri: a.value, prev: -1})
	switch {
	case r.nsIndex != nil:
		r.indexBinding(len(r.ns) - 1)
	case len(r.ns) > nsLinearMax:
		r.nsIndex = make(map[string]int, 2*nsLinearMax)
		for i := range r.ns {
			r.indexBinding(i)
		}
	}
	return nil
}

func (r *Reader) indexBinding(i int) {
	b := &r.ns[i]
	if prev, ok := r.nsIndex[b.prefix]; ok {
		b.prev = prev
	}
	r.nsIndex[b.prefix] = i
}

// popBindings drops the bindings from index mark on.
func (r *Reader) popBindings(mark int) {
	if r.nsIndex != nil {
		for i := len(r.ns) - 1; i >= mark; i-- {
			if b := r.ns[i]; b.prev >= 0 {
				r.nsIndex[b.prefix] = b.prev
			} else {
				delete(r.nsIndex, b.prefix)
			}
		}
	}
	r.ns = r.ns[:mark]
}

// lookup finds the binding of prefix in the current scope.
func (r *Reader) lookup(prefix string) (string, bool) {
	if prefix == "xml" {
		return NSXML, true
	}
	if r.nsIndex != nil {
		if i, ok := r.nsIndex[prefix]; ok {
			return r.ns[i].uri, true
		}
		return "", false
	}
	for i := len(r.ns) - 1; i >= 0; i-- {
		if r.ns[i].prefix == prefix {
			return r.ns[i].uri, true
		}
	}
	return "", false
}

// resolveElem returns the namespace of an element name.
func (r *Reader) resolveElem(q *qname, off int) (string, error) {
	if q.prefix == "xmlns" {
		return "", r.errAt(off, "element <%s:%s> cannot use the reserved prefix xmlns", q.prefix, q.local)
	}
	uri, ok := r.lookup(q.prefix)
	if !ok && q.prefix != "" {
		return r.undeclaredPrefix(q, off)
	}
	return uri, nil
}

// resolveAttr returns the expanded name of an attribute. Unprefixed
// attributes have no namespace.
func (r *Reader) resolveAttr(a rawAttr) (Name, error) {
	switch {
	case a.q.prefix == "" && a.q.local == "xmlns":
		return Name{Space: NSXMLNS, Local: "xmlns"}, nil
	case a.q.prefix == "xmlns":
		return Name{Space: NSXMLNS, Local: a.q.local}, nil
	case a.q.prefix == "":
		return Name{Local: a.q.local}, nil
	}
	uri, ok := r.lookup(a.q.prefix)
	if !ok {
		space, err := r.undeclaredPrefix(a.q, a.off)
		return Name{Space: space, Local: a.q.local}, err
	}
	return Name{Space: uri, Local: a.q.local}, nil
}

// undeclaredPrefix fails, or with Limits.AllowUndeclaredPrefixes records
// the prefix and resolves it to its placeholder namespace.
func (r *Reader) undeclaredPrefix(q *qname, off int) (string, error) {
	if !r.lim.AllowUndeclaredPrefixes {
		return "", r.errAt(off, "undeclared namespace prefix %q in %s:%s", q.prefix, q.prefix, q.local)
	}
	return r.noteUndeclared(q.prefix), nil
}

// noteUndeclared records an undeclared prefix once and returns its
// placeholder namespace.
func (r *Reader) noteUndeclared(prefix string) string {
	if space, seen := r.undeclaredSet[prefix]; seen {
		return space
	}
	if r.undeclaredSet == nil {
		r.undeclaredSet = make(map[string]string)
	}
	space := UndeclaredSpace(prefix)
	r.undeclaredSet[prefix] = space
	r.undeclared = append(r.undeclared, prefix)
	return space
}

// undeclaredBase starts the placeholder namespace of an undeclared prefix.
const undeclaredBase = "urn:s2r:undeclared-prefix:"

// UndeclaredSpace returns the placeholder namespace an undeclared prefix
// resolves to with Limits.AllowUndeclaredPrefixes: a URN naming the
// prefix, so that names of different undeclared prefixes stay distinct
// and never collide with unqualified names.
func UndeclaredSpace(prefix string) string { return undeclaredBase + prefix }

// UndeclaredPrefix reports whether space is the placeholder namespace of an
// undeclared prefix, and which.
func UndeclaredPrefix(space string) (string, bool) {
	prefix, ok := strings.CutPrefix(space, undeclaredBase)
	return prefix, ok && prefix != ""
}

// LookupPrefix returns the namespace bound to prefix in the current scope
// ("" is the default namespace). The prefix xml is always bound.
func (r *Reader) LookupPrefix(prefix string) (string, bool) { return r.lookup(prefix) }

// ResolveQName resolves a QName-valued attribute or text ("tns:X", or "X"
// in the default namespace) in the current scope. Surrounding white space
// is ignored. With Limits.AllowUndeclaredPrefixes an undeclared prefix
// resolves to its placeholder namespace (UndeclaredSpace) and is recorded.
func (r *Reader) ResolveQName(qname string) (Name, error) {
	prefix, local, err := splitQNameValue(qname)
	if err != nil {
		return Name{}, err
	}
	uri, ok := r.lookup(prefix)
	if !ok && prefix != "" {
		if !r.lim.AllowUndeclaredPrefixes {
			return Name{}, fmt.Errorf("xmlstream: resolving %q: %w %q", qname, ErrUndeclaredPrefix, prefix)
		}
		uri = r.noteUndeclared(prefix)
	}
	return Name{Space: uri, Local: local}, nil
}

// splitQNameValue splits a QName value into a prefix and a local name.
func splitQNameValue(s string) (prefix, local string, err error) {
	t := strings.Trim(s, " \t\r\n")
	prefix, local, found := strings.Cut(t, ":")
	if !found {
		prefix, local = "", t
	}
	if found && !isNCName(prefix) || !isNCName(local) {
		return "", "", fmt.Errorf("xmlstream: %w %q", ErrInvalidQName, s)
	}
	return prefix, local, nil
}
