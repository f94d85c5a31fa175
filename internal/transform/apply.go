package transform

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidJSON is wrapped by Apply's error when the document is not one
// well-formed JSON value (duplicate member names and invalid UTF-8
// included).
var ErrInvalidJSON = errors.New("invalid JSON")

// Apply runs the rules on doc and returns the transformed document as
// compact JSON. A Program without rules returns doc unchanged. Errors are
// *ApplyError (a rule failed on a value) or wrap ErrInvalidJSON.
func (p *Program) Apply(doc []byte) ([]byte, error) {
	if len(p.steps) == 0 {
		return doc, nil
	}
	root, err := parseJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("transform: %w: %v", ErrInvalidJSON, err)
	}
	for i := range p.steps {
		st := &p.steps[i]
		if err := st.run(st, root); err != nil {
			return nil, err
		}
	}
	return appendJSON(make([]byte, 0, len(doc)+len(doc)/8), root), nil
}

func (st *step) fail(at, reason string) *ApplyError {
	return &ApplyError{Index: st.index, Kind: st.kind, Field: at, Reason: reason}
}

// stringFunc replaces the string s held by n, in place; a non-empty reason
// fails the rule instead.
type stringFunc func(st *step, n *node, s string) string

// eachString returns a run function applying fn to every string the path
// reaches. Null values are left alone; other types are errors.
func eachString(fn stringFunc) func(*step, *node) error {
	return func(st *step, root *node) error {
		return st.path.visit(root, func(n *node, at *trail) error {
			switch n.kind {
			case 'n':
				return nil
			case '"':
				if reason := fn(st, n, n.str()); reason != "" {
					return st.fail(at.String(), reason)
				}
				return nil
			}
			return st.fail(at.String(), wrongType(st.kind, "strings", n))
		})
	}
}

func wrongType(k Kind, want string, n *node) string {
	msg := fmt.Sprintf("%s applies to %s, found %s", k, want, n.kindName())
	if n.kind == '[' && want == "strings" {
		msg += ` (end the field with "/*" to apply it to each element)`
	}
	return msg
}

func runSplit(st *step, n *node, s string) string {
	var parts []string
	if s != "" {
		parts = strings.SplitN(s, st.separator, st.limit)
	}
	// Encode every part into one buffer first, then slice it: slicing
	// while appending would keep pointers into outgrown arrays.
	buf := make([]byte, 0, len(s)+2*len(parts))
	ends := make([]int, len(parts))
	for i, part := range parts {
		buf = appendString(buf, part)
		ends[i] = len(buf)
	}
	nodes := make([]node, len(parts))
	items := make([]*node, len(parts))
	start := 0
	for i, end := range ends {
		nodes[i] = node{kind: '"', raw: buf[start:end:end]}
		items[i] = &nodes[i]
		start = end
	}
	*n = node{kind: '[', items: items}
	return ""
}

func runDateFormat(st *step, n *node, s string) string {
	t, err := st.from.parse(s)
	if err != nil {
		return fmt.Sprintf("value %q does not match the pattern %q: %v", truncate(s, 40), st.from.source, err)
	}
	n.setString(st.out.format(t))
	return ""
}

func runJoin(st *step, root *node) error {
	return st.path.visit(root, func(n *node, at *trail) error {
		switch n.kind {
		case 'n':
			return nil
		case '[':
		default:
			return st.fail(at.String(), wrongType(st.kind, "arrays of strings", n))
		}
		n.expand()
		var b strings.Builder
		for i, it := range n.items {
			if it.kind != '"' {
				return st.fail(at.String()+"/"+strconv.Itoa(i), fmt.Sprintf("join needs an array of strings, found %s", it.kindName()))
			}
			if i > 0 {
				b.WriteString(st.separator)
			}
			b.WriteString(it.str())
		}
		n.setString(b.String())
		return nil
	})
}

// parentPath is the path of the object holding the rule's member.
func (st *step) parentPath() path { return st.path[:len(st.path)-1] }

func runDefault(st *step, root *node) error {
	name := st.path.last().name
	return st.parentPath().visit(root, func(n *node, _ *trail) error {
		if n.kind != '{' {
			return nil
		}
		switch i := n.lookup(name); {
		case i < 0:
			n.members = append(n.members, member{rawName: st.nameRaw, val: st.value.clone()})
		case n.members[i].val.kind == 'n':
			n.members[i].val = st.value.clone()
		}
		return nil
	})
}

func runRename(st *step, root *node) error {
	name := st.path.last().name
	return st.parentPath().visit(root, func(n *node, at *trail) error {
		if n.kind != '{' {
			return nil
		}
		i := n.lookup(name)
		if i < 0 {
			return nil
		}
		if n.lookup(st.to) >= 0 {
			return st.fail(at.String()+"/"+escapeSegment(name), fmt.Sprintf("cannot rename to %q: the object already has a member of that name", st.to))
		}
		n.members[i].rawName = st.toRaw
		return nil
	})
}

// truncate shortens s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
