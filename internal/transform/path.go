package transform

import (
	"errors"
	"strconv"
	"strings"
)

// Wildcard is the path segment that matches every element of an array.
const Wildcard = "*"

// segment is one step of a parsed path.
type segment struct {
	name     string // the unescaped member name
	index    int    // the array index the name spells, or -1
	wildcard bool
}

// path is a parsed field path: a JSON Pointer (RFC 6901) whose segments may
// also be the wildcard "*".
type path []segment

// parsePath parses a JSON Pointer such as "/order/items/*/sku". Each
// segment is a member name (with "~1" for "/" and "~0" for "~"), a decimal
// array index, or "*" for every element of an array. The root pointer ""
// and empty segments are not accepted: a rule always names a member.
func parsePath(p string) (path, error) {
	if p == "" {
		return nil, errors.New("field is empty; write a JSON Pointer such as /order/id")
	}
	if p[0] != '/' {
		return nil, errors.New("field must be a JSON Pointer starting with \"/\", such as /order/id")
	}
	var out path
	for raw := range strings.SplitSeq(p[1:], "/") {
		if raw == "" {
			return nil, errors.New("field has an empty segment")
		}
		if raw == Wildcard {
			out = append(out, segment{name: raw, index: -1, wildcard: true})
			continue
		}
		name, err := unescapeSegment(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, segment{name: name, index: arrayIndex(name)})
	}
	return out, nil
}

func unescapeSegment(s string) (string, error) {
	if !strings.Contains(s, "~") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && (s[i+1] == '0' || s[i+1] == '1') {
			b.WriteByte("~/"[s[i+1]-'0'])
			i++
			continue
		}
		return "", errors.New("field has a \"~\" not followed by 0 or 1")
	}
	return b.String(), nil
}

// arrayIndex returns the index a segment spells ("0", "17"; no leading
// zeros, no sign), or -1.
func arrayIndex(s string) int {
	if s == "" || len(s) > 9 || (len(s) > 1 && s[0] == '0') {
		return -1
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || s[0] == '+' {
		return -1
	}
	return n
}

// escapeSegment renders a member name as a pointer segment.
func escapeSegment(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// last returns the final segment.
func (p path) last() segment { return p[len(p)-1] }

// trail records the concrete pointer of the value being visited; it is
// rendered only when a rule fails, so visiting allocates nothing for it.
type trail struct {
	names   []string
	indexes []int // -1 where the step is a member name
}

func (t *trail) push(name string, index int) {
	t.names = append(t.names, name)
	t.indexes = append(t.indexes, index)
}

func (t *trail) pop() {
	t.names = t.names[:len(t.names)-1]
	t.indexes = t.indexes[:len(t.indexes)-1]
}

// String renders the trail as a JSON Pointer.
func (t *trail) String() string {
	var b strings.Builder
	for i, name := range t.names {
		b.WriteByte('/')
		if t.indexes[i] >= 0 {
			b.WriteString(strconv.Itoa(t.indexes[i]))
		} else {
			b.WriteString(escapeSegment(name))
		}
	}
	return b.String()
}

// visitFunc is called for each value a path reaches.
type visitFunc func(n *node, at *trail) error

// visit calls fn for every value the path reaches, with the trail of that
// value. Missing members, out-of-range indexes and type mismatches along
// the way simply reach nothing.
func (p path) visit(root *node, fn visitFunc) error {
	var t trail
	return visitFrom(root, p, &t, fn)
}

func visitFrom(n *node, p path, t *trail, fn visitFunc) error {
	if len(p) == 0 {
		return fn(n, t)
	}
	seg := p[0]
	n.expand()
	switch {
	case n.kind == '[' && seg.wildcard:
		for i, it := range n.items {
			t.push("", i)
			if err := visitFrom(it, p[1:], t, fn); err != nil {
				return err
			}
			t.pop()
		}
	case n.kind == '[' && seg.index >= 0 && seg.index < len(n.items):
		t.push("", seg.index)
		err := visitFrom(n.items[seg.index], p[1:], t, fn)
		t.pop()
		return err
	case n.kind == '{' && !seg.wildcard:
		if i := n.lookup(seg.name); i >= 0 {
			t.push(seg.name, -1)
			err := visitFrom(n.members[i].val, p[1:], t, fn)
			t.pop()
			return err
		}
	}
	return nil
}
