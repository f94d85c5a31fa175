package wsdl

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// qnameAttrs are the unqualified attributes whose values are QNames.
var qnameAttrs = map[string]bool{
	"type": true, "element": true, "base": true, "ref": true, "message": true,
	"binding": true, "itemType": true, "substitutionGroup": true, "memberTypes": true,
}

// PrefixRepair is one undeclared prefix of one file and the declaration
// proposed for it.
type PrefixRepair struct {
	File   string
	Line   int // first use
	Prefix string
	URI    string // proposed namespace; empty when none can be proposed
	Source string // why this URI: "conventional prefix", "targetNamespace", "bound at FILE:LINE"
}

// RepairReport lists the undeclared prefixes found, in file order.
type RepairReport struct {
	Repairs []PrefixRepair
}

// String renders one line per prefix.
func (r RepairReport) String() string {
	var b strings.Builder
	for _, p := range r.Repairs {
		if p.URI == "" {
			fmt.Fprintf(&b, "undeclared prefix %q at %s:%d: no namespace to propose\n", p.Prefix, p.File, p.Line)
			continue
		}
		fmt.Fprintf(&b, "undeclared prefix %q at %s:%d: declare %q (%s)\n", p.Prefix, p.File, p.Line, p.URI, p.Source)
	}
	return b.String()
}

// RepairNamespaces finds prefixes used without declaration in element and
// attribute names and in QName values, proposes for each the namespace an
// import reads it as (xsd.ChoosePrefix, with the bindings of all the
// files), and returns the files with the proposed declarations added on
// their root element (files without repairs are returned unchanged). A
// prefix with no known namespace gets no proposal.
func RepairNamespaces(files map[string][]byte) (RepairReport, map[string][]byte, error) {
	names, uses, err := findUndeclaredUses(files)
	if err != nil {
		return RepairReport{}, nil, err
	}
	var report RepairReport
	out := make(map[string][]byte, len(files))
	for _, n := range names {
		repairs := uses[n]
		for i := range repairs {
			if repairs[i].URI == xmlstream.UndeclaredSpace(repairs[i].Prefix) {
				repairs[i].URI, repairs[i].Source = "", ""
			}
		}
		report.Repairs = append(report.Repairs, repairs...)
		fixed, err := addDeclarations(files[n], repairs)
		if err != nil {
			return RepairReport{}, nil, &ImportError{File: n, Reason: "cannot repair", Err: err}
		}
		out[n] = fixed
	}
	return report, out, nil
}

// DeclareUndeclared returns files with a declaration, on each root
// element, of every prefix used without one, bound to the namespace an
// import reads it as (the placeholder namespace of a prefix with no known
// namespace), so that the documents are namespace-well-formed and mean
// what the import understood: the WSDL s2r serves. Files that are not
// well-formed XML, or need nothing, are returned as they are.
func DeclareUndeclared(files map[string][]byte) map[string][]byte {
	_, uses, _ := findUndeclaredUses(files)
	if len(uses) == 0 {
		return files
	}
	out := make(map[string][]byte, len(files))
	for n, data := range files {
		out[n] = data
		if fixed, err := addDeclarations(data, uses[n]); err == nil {
			out[n] = fixed
		}
	}
	return out
}

// findUndeclaredUses parses every file with undeclared prefixes allowed
// and lists, per file, each undeclared prefix at its first use with the
// namespace the rules read it as. It returns the sorted file names; files
// that are not well-formed are left out, and the first of their errors is
// returned with the uses of the others.
func findUndeclaredUses(files map[string][]byte) ([]string, map[string][]PrefixRepair, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	roots := map[string]*xmlstream.Element{}
	bound := xsd.PrefixBindings{}
	var firstErr error
	for _, n := range names {
		root, _, err := xmlstream.ParseAllowUndeclared(files[n], xmlstream.Limits{})
		if err != nil || root == nil {
			if firstErr == nil && err != nil {
				firstErr = xsd.ParseError(n, err)
			} else if firstErr == nil {
				firstErr = &ImportError{File: n, Reason: "empty document"}
			}
			continue
		}
		roots[n] = root
		bound.Add(n, root)
	}
	uses := map[string][]PrefixRepair{}
	for _, n := range names {
		root := roots[n]
		if root == nil {
			continue
		}
		tns, _ := root.Attr("", "targetNamespace")
		repairs := findUndeclared(n, root)
		for i := range repairs {
			c := xsd.ChoosePrefix(repairs[i].Prefix, tns, bound)
			repairs[i].URI, repairs[i].Source = c.URI, repairSource(c)
		}
		if len(repairs) > 0 {
			uses[n] = repairs
		}
	}
	return names, uses, firstErr
}

// repairSource says why a namespace is proposed.
func repairSource(c xsd.PrefixChoice) string {
	switch c.Rule {
	case xsd.PrefixBoundInSet:
		return "bound at " + c.Where
	case xsd.PrefixConventional:
		if c.Assumes != "" {
			return "conventional prefix: " + c.Assumes
		}
	}
	return c.Rule
}

// findUndeclared walks the tree and records each undeclared prefix once.
func findUndeclared(file string, root *xmlstream.Element) []PrefixRepair {
	var out []PrefixRepair
	seen := map[string]bool{}
	note := func(prefix string, el *xmlstream.Element) {
		if prefix == "" || prefix == "xml" || prefix == "xmlns" || seen[prefix] {
			return
		}
		if _, ok := el.LookupPrefix(prefix); ok {
			return
		}
		seen[prefix] = true
		out = append(out, PrefixRepair{File: file, Line: el.Line, Prefix: prefix})
	}
	stack := []*xmlstream.Element{root}
	for len(stack) > 0 {
		el := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		note(el.Prefix, el)
		for _, a := range el.Attrs {
			note(a.Prefix, el)
			if (a.Prefix == "" && qnameAttrs[a.Name.Local]) || a.Name.Local == "arrayType" {
				for _, v := range strings.Fields(a.Value) {
					if p, _, ok := strings.Cut(v, ":"); ok {
						note(p, el)
					}
				}
			}
		}
		for i := len(el.Children) - 1; i >= 0; i-- {
			stack = append(stack, el.Children[i])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// addDeclarations inserts xmlns declarations for the proposed URIs right
// after the root element's name.
func addDeclarations(data []byte, repairs []PrefixRepair) ([]byte, error) {
	var decls strings.Builder
	for _, r := range repairs {
		if r.URI != "" {
			fmt.Fprintf(&decls, " xmlns:%s=\"%s\"", r.Prefix, escapeAttr(r.URI))
		}
	}
	if decls.Len() == 0 {
		return data, nil
	}
	at, err := rootNameEnd(data)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(data)+decls.Len())
	out = append(out, data[:at]...)
	out = append(out, decls.String()...)
	return append(out, data[at:]...), nil
}

// escapeAttr escapes s for a double-quoted attribute value; characters
// beyond ASCII become character references, which mean the same in a
// document of any encoding (the declaration is spliced into stored bytes).
func escapeAttr(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '"':
			b.WriteString("&quot;")
		case r > 0x7e || r < 0x20:
			fmt.Fprintf(&b, "&#x%X;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

var errNoRoot = errors.New("no root element")

// rootNameEnd returns the offset just after the root element's name,
// skipping the XML declaration, comments, processing instructions and a
// DOCTYPE.
func rootNameEnd(data []byte) (int, error) {
	i := 0
	for {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 || i+j+1 >= len(data) {
			return 0, errNoRoot
		}
		i += j
		rest := data[i:]
		var end int
		switch {
		case bytes.HasPrefix(rest, []byte("<?")):
			end = bytes.Index(rest, []byte("?>"))
		case bytes.HasPrefix(rest, []byte("<!--")):
			end = bytes.Index(rest, []byte("-->"))
		case bytes.HasPrefix(rest, []byte("<!")):
			end = doctypeEnd(rest)
		default:
			k := 1
			for k < len(rest) && !strings.ContainsRune(" \t\r\n/>", rune(rest[k])) {
				k++
			}
			return i + k, nil
		}
		if end < 0 {
			return 0, errNoRoot
		}
		i += end + 1
	}
}

// doctypeEnd finds the '>' closing a DOCTYPE, past any internal subset.
func doctypeEnd(rest []byte) int {
	gt := bytes.IndexByte(rest, '>')
	br := bytes.IndexByte(rest, '[')
	if br >= 0 && (gt < 0 || br < gt) {
		if k := bytes.Index(rest[br:], []byte("]")); k >= 0 {
			if g := bytes.IndexByte(rest[br+k:], '>'); g >= 0 {
				return br + k + g
			}
		}
		return -1
	}
	return gt
}
