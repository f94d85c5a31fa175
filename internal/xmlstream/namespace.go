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

// binding is one namespace declaration in scope.
type binding struct{ prefix, uri string }

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
	r.ns = append(r.ns, binding{prefix: prefix, uri: a.value})
	return nil
}

// lookup finds the binding of prefix in the current scope.
func (r *Reader) lookup(prefix string) (string, bool) {
	if prefix == "xml" {
		return NSXML, true
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

// undeclaredPrefix fails, or in repair mode records the prefix and
// resolves it to no namespace.
func (r *Reader) undeclaredPrefix(q *qname, off int) (string, error) {
	if !r.lim.AllowUndeclaredPrefixes {
		return "", r.errAt(off, "undeclared namespace prefix %q in %s:%s", q.prefix, q.prefix, q.local)
	}
	r.noteUndeclared(q.prefix)
	return "", nil
}

func (r *Reader) noteUndeclared(prefix string) {
	for _, p := range r.undeclared {
		if p == prefix {
			return
		}
	}
	r.undeclared = append(r.undeclared, prefix)
}

// LookupPrefix returns the namespace bound to prefix in the current scope
// ("" is the default namespace). The prefix xml is always bound.
func (r *Reader) LookupPrefix(prefix string) (string, bool) { return r.lookup(prefix) }

// ResolveQName resolves a QName-valued attribute or text ("tns:X", or "X"
// in the default namespace) in the current scope. Surrounding white space
// is ignored. With Limits.AllowUndeclaredPrefixes an undeclared prefix
// resolves to no namespace and is recorded.
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
		r.noteUndeclared(prefix)
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
