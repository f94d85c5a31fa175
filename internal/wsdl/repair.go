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

// wellKnownPrefixes are the namespaces conventionally bound to common
// prefixes, proposed for undeclared ones.
var wellKnownPrefixes = map[string]string{
	"wsdl": NSWSDL, "soap": NSSOAP11, "soap12": NSSOAP12, "wsoap12": NSSOAP12,
	"http": NSHTTP, "mime": NSMIME,
	"xsd": xsd.NSXSD, "xs": xsd.NSXSD, "s": xsd.NSXSD, "xsi": xsd.NSXSI,
	"soapenc": xsd.NSSOAPEnc, "SOAP-ENC": xsd.NSSOAPEnc, "soapenc12": xsd.NSSOAP12Enc,
	"soapenv": "http://schemas.xmlsoap.org/soap/envelope/", "SOAP-ENV": "http://schemas.xmlsoap.org/soap/envelope/",
	"wsp": "http://schemas.xmlsoap.org/ws/2004/09/policy", "wsp15": "http://www.w3.org/ns/ws-policy",
	"wsu":  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd",
	"wsse": "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd",
	"wsam": "http://www.w3.org/2007/05/addressing/metadata",
	"wsaw": "http://www.w3.org/2006/05/addressing/wsdl",
	"wsa":  xsd.NSWSA, "wsoma": "http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization",
	"xmime": xsd.NSXMIME, "xop": xsd.NSXOP, "ds": xsd.NSDSig,
	"sp":  "http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702",
	"wsx": "http://schemas.xmlsoap.org/ws/2004/09/mex",
	"msc": "http://schemas.microsoft.com/ws/2005/12/wsdl/contract",
	"ser": "http://schemas.microsoft.com/2003/10/Serialization/",
}

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
	Source string // why this URI: "well-known prefix", "targetNamespace", "declared in FILE"
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
// attribute names and in QName values, proposes a namespace for each, and
// returns the files with the proposed declarations added on their root
// element (files without repairs are returned unchanged).
func RepairNamespaces(files map[string][]byte) (RepairReport, map[string][]byte, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	roots := map[string]*xmlstream.Element{}
	for _, n := range names {
		root, err := xsd.ParseDocument(files[n], n, xmlstream.Limits{AllowUndeclaredPrefixes: true})
		if err != nil {
			return RepairReport{}, nil, err
		}
		roots[n] = root
	}
	var report RepairReport
	out := make(map[string][]byte, len(files))
	for _, n := range names {
		repairs := findUndeclared(n, roots[n])
		for i := range repairs {
			proposeURI(&repairs[i], roots[n], names, roots)
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

// proposeURI fills URI and Source for an undeclared prefix.
func proposeURI(r *PrefixRepair, root *xmlstream.Element, names []string, roots map[string]*xmlstream.Element) {
	if uri, ok := wellKnownPrefixes[r.Prefix]; ok {
		r.URI, r.Source = uri, "well-known prefix"
		return
	}
	if r.Prefix == "tns" || r.Prefix == "this" {
		if tns, ok := root.Attr("", "targetNamespace"); ok && tns != "" {
			r.URI, r.Source = tns, "targetNamespace"
			return
		}
	}
	if uri, line, ok := findDeclaration(root, r.Prefix); ok {
		r.URI, r.Source = uri, fmt.Sprintf("declared in another scope at line %d", line)
		return
	}
	for _, n := range names {
		if roots[n] == root {
			continue
		}
		if uri, _, ok := findDeclaration(roots[n], r.Prefix); ok {
			r.URI, r.Source = uri, "declared in "+n
			return
		}
	}
}

// findDeclaration finds the first declaration of prefix anywhere in the
// tree, in document order.
func findDeclaration(root *xmlstream.Element, prefix string) (string, int, bool) {
	stack := []*xmlstream.Element{root}
	for len(stack) > 0 {
		el := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if uri, ok := el.NS[prefix]; ok && uri != "" {
			return uri, el.Line, true
		}
		for i := len(el.Children) - 1; i >= 0; i-- {
			stack = append(stack, el.Children[i])
		}
	}
	return "", 0, false
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

func escapeAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", "\"", "&quot;").Replace(s)
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
