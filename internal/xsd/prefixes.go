package xsd

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Undeclared prefixes (docs/wsdl-support.md "Undeclared prefixes"): an
// import reads a prefix that a document uses without declaring it, in an
// element or attribute name or in a QName value, as the namespace the
// first of these rules gives, and warns naming the file, the line of first
// use, the prefix and what was assumed:
//
//  1. tns and this: the targetNamespace of the document's root element,
//     when it has one (the prefix means "this document's namespace", which
//     differs from file to file);
//  2. the namespace the same prefix is bound to elsewhere in the import
//     set (any scope of any document the import reads), when it is bound
//     to exactly one there;
//  3. the conventional namespace of the prefix (conventionalPrefixes);
//  4. otherwise its placeholder namespace (xmlstream.UndeclaredSpace):
//     elements so named are unknown extensions, and names referenced
//     through the prefix do not resolve, so the lenient import's stand-ins
//     apply.
//
// Messages at runtime are never read this way: only import parses with
// undeclared prefixes allowed.

// Rules of a PrefixChoice.
const (
	PrefixTargetNamespace = "targetNamespace"
	PrefixBoundInSet      = "bound in the import set"
	PrefixConventional    = "conventional prefix"
	PrefixUnknown         = "no namespace known"
)

// conventional is the namespace a prefix conventionally names and, when
// reading it so decides what the element means, what is assumed.
type conventional struct {
	uri, assumes string
}

// conventionalPrefixes are the prefixes that WSDL and schema generators
// (.NET/WCF, JAX-WS/Metro/CXF, Axis, gSOAP) write by default, with the
// namespace each writes for it. Only prefixes whose meaning does not vary
// between those tools are listed.
var conventionalPrefixes = map[string]conventional{
	"wsdl":      {nsWSDL11, "WSDL 1.1"},
	"soap":      {"http://schemas.xmlsoap.org/wsdl/soap/", "a SOAP 1.1 binding"},
	"wsdlsoap":  {"http://schemas.xmlsoap.org/wsdl/soap/", "a SOAP 1.1 binding"},
	"soap12":    {"http://schemas.xmlsoap.org/wsdl/soap12/", "a SOAP 1.2 binding"},
	"wsoap12":   {"http://schemas.xmlsoap.org/wsdl/soap12/", "a SOAP 1.2 binding"},
	"http":      {"http://schemas.xmlsoap.org/wsdl/http/", "an HTTP binding"},
	"mime":      {"http://schemas.xmlsoap.org/wsdl/mime/", "WSDL MIME bindings"},
	"xsd":       {NSXSD, "XML Schema (2001)"},
	"xs":        {NSXSD, "XML Schema (2001)"},
	"s":         {NSXSD, "XML Schema (2001)"},
	"xsi":       {NSXSI, ""},
	"soapenc":   {NSSOAPEnc, "SOAP 1.1 encoding"},
	"SOAP-ENC":  {NSSOAPEnc, "SOAP 1.1 encoding"},
	"soapenc12": {NSSOAP12Enc, "SOAP 1.2 encoding"},
	"soapenv":   {"http://schemas.xmlsoap.org/soap/envelope/", "SOAP 1.1"},
	"SOAP-ENV":  {"http://schemas.xmlsoap.org/soap/envelope/", "SOAP 1.1"},
	"wsp":       {"http://schemas.xmlsoap.org/ws/2004/09/policy", "WS-Policy 1.2 (2004/09)"},
	"wsp15":     {"http://www.w3.org/ns/ws-policy", "WS-Policy 1.5"},
	"wsu":       {"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd", ""},
	"wsse":      {"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd", ""},
	"wsam":      {"http://www.w3.org/2007/05/addressing/metadata", ""},
	"wsaw":      {"http://www.w3.org/2006/05/addressing/wsdl", ""},
	"wsa":       {NSWSA, "WS-Addressing 1.0 (2005/08)"},
	"wsoma":     {"http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization", ""},
	"xmime":     {NSXMIME, ""},
	"xop":       {NSXOP, ""},
	"ds":        {NSDSig, ""},
	"sp":        {"http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702", "WS-SecurityPolicy 1.2"},
	"wsx":       {"http://schemas.xmlsoap.org/ws/2004/09/mex", ""},
	"msc":       {"http://schemas.microsoft.com/ws/2005/12/wsdl/contract", ""},
	"ser":       {"http://schemas.microsoft.com/2003/10/Serialization/", ""},
	"tm":        {"http://microsoft.com/wsdl/mime/textMatching/", ""},
}

// PrefixChoice is the namespace an undeclared prefix is read as, and why.
type PrefixChoice struct {
	URI  string
	Rule string // PrefixTargetNamespace, PrefixBoundInSet, PrefixConventional or PrefixUnknown
	// Where names the declaration the namespace comes from ("file:line")
	// for PrefixBoundInSet.
	Where string
	// Assumes says what reading the prefix so decides (for example "a
	// SOAP 1.1 binding"), for conventional prefixes that decide meaning.
	Assumes string
	// Ambiguous is the number of namespaces the prefix is bound to in the
	// import set when that is more than one (then rule 2 does not apply).
	Ambiguous int
}

// PrefixBindings maps each prefix declared in an import set to the
// namespaces it is bound to, each with the first declaration binding it
// ("file:line").
type PrefixBindings map[string]map[string]string

// Add records the declarations of the document at location (its tree).
func (b PrefixBindings) Add(location string, root *xmlstream.Element) {
	b.add(location, root, nil)
}

// add records the declarations of a tree except those of the root's
// prefixes in skip (the declarations Prefixes.Parse added).
func (b PrefixBindings) add(location string, root *xmlstream.Element, skip []string) {
	stack := []*xmlstream.Element{root}
	for len(stack) > 0 {
		el := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for prefix, uri := range el.NS {
			if prefix == "" || uri == "" || (el == root && slices.Contains(skip, prefix)) {
				continue
			}
			if b[prefix] == nil {
				b[prefix] = map[string]string{}
			}
			if _, ok := b[prefix][uri]; !ok {
				b[prefix][uri] = fmt.Sprintf("%s:%d", location, el.Line)
			}
		}
		for i := len(el.Children) - 1; i >= 0; i-- {
			stack = append(stack, el.Children[i])
		}
	}
}

// ChoosePrefix applies the rules to an undeclared prefix of a document
// whose root element has targetNamespace tns, with the bindings of the
// import set.
func ChoosePrefix(prefix, tns string, bound PrefixBindings) PrefixChoice {
	if (prefix == "tns" || prefix == "this") && tns != "" {
		return PrefixChoice{URI: tns, Rule: PrefixTargetNamespace}
	}
	uris := bound[prefix]
	if len(uris) == 1 {
		for uri, where := range uris {
			return PrefixChoice{URI: uri, Rule: PrefixBoundInSet, Where: where}
		}
	}
	var c PrefixChoice
	if len(uris) > 1 {
		c.Ambiguous = len(uris)
	}
	if conv, ok := conventionalPrefixes[prefix]; ok {
		c.URI, c.Rule, c.Assumes = conv.uri, PrefixConventional, conv.assumes
		return c
	}
	c.URI, c.Rule = xmlstream.UndeclaredSpace(prefix), PrefixUnknown
	return c
}

// Warning renders the import warning for prefix first used at file:line.
func (c PrefixChoice) Warning(file string, line int, prefix string) string {
	head := (&ImportError{File: file, Line: line, Reason: fmt.Sprintf("undeclared namespace prefix %q", prefix)}).Error()
	amb := ""
	if c.Ambiguous > 0 {
		amb = fmt.Sprintf(" (bound to %d different namespaces elsewhere in the import set)", c.Ambiguous)
	}
	switch c.Rule {
	case PrefixTargetNamespace:
		return fmt.Sprintf("%s: read as %q, the document's targetNamespace", head, c.URI)
	case PrefixBoundInSet:
		return fmt.Sprintf("%s: read as %q, the namespace it is bound to at %s", head, c.URI, c.Where)
	case PrefixConventional:
		w := fmt.Sprintf("%s: read as %q, its conventional namespace%s", head, c.URI, amb)
		if c.Assumes != "" {
			w += ": " + c.Assumes + " assumed"
		}
		return w
	}
	return fmt.Sprintf("%s: no known namespace%s: read as %q, so elements named with it are unknown extensions and names referenced through it do not resolve", head, amb, c.URI)
}

// Prefixes resolves the undeclared prefixes of one import pass
// consistently: each (document, prefix) is decided once, at its first use,
// and warned about once. A nil *Prefixes is strict: Parse and ResolveQName
// fail on undeclared prefixes. It is safe for concurrent use.
type Prefixes struct {
	mu sync.Mutex
	// given are the bindings of the whole import set from an earlier pass;
	// when nil, the bindings of the documents parsed so far are used.
	given      PrefixBindings
	docs       []prefixDoc
	collected  PrefixBindings
	collectedN int // docs already in collected
	decided    map[prefixKey]decidedPrefix
	warnings   []string
	unlisted   int // warnings beyond maxPrefixWarnings
}

// maxPrefixWarnings bounds the prefix warnings of one import, so that a
// hostile document with thousands of distinct prefixes cannot bloat the
// stored artifact: the rest are counted in one last warning.
const maxPrefixWarnings = 100

type prefixDoc struct {
	location string
	root     *xmlstream.Element
	added    []string // prefixes whose declarations Parse added on root
}

type prefixKey struct{ file, prefix string }

type decidedPrefix struct {
	tns    string
	choice PrefixChoice
}

// NewPrefixes returns the resolver of one import pass. given are the
// bindings of the import set found by an earlier pass (Bindings), or nil.
func NewPrefixes(given PrefixBindings) *Prefixes {
	return &Prefixes{given: given, collected: PrefixBindings{}, decided: map[prefixKey]decidedPrefix{}}
}

// Parse parses a document of the import at location. With a nil receiver
// it is ParseDocument. Otherwise an undeclared prefix in an element or
// attribute name is read by the rules, and declared on the root element so
// that QName values using it resolve the same way.
func (px *Prefixes) Parse(data []byte, location string, limits xmlstream.Limits) (*xmlstream.Element, error) {
	if px == nil {
		return ParseDocument(data, location, limits)
	}
	root, undeclared, err := xmlstream.ParseAllowUndeclared(data, limits)
	if err != nil {
		return nil, ParseError(location, err)
	}
	if root == nil {
		return nil, &ImportError{File: location, Reason: "empty document"}
	}
	px.mu.Lock()
	defer px.mu.Unlock()
	if !strings.HasPrefix(location, builtinPrefix) {
		px.docs = append(px.docs, prefixDoc{location: location, root: root, added: undeclared})
	}
	if len(undeclared) > 0 {
		px.rewrite(location, root, undeclared)
	}
	return root, nil
}

// rewrite gives the names in placeholder namespaces their chosen
// namespaces and declares the chosen namespaces on the root.
func (px *Prefixes) rewrite(location string, root *xmlstream.Element, undeclared []string) {
	tns, _ := root.Attr("", "targetNamespace")
	uri := func(space string, line int) string {
		if p, ok := xmlstream.UndeclaredPrefix(space); ok {
			return px.choose(location, tns, p, line).URI
		}
		return space
	}
	stack := []*xmlstream.Element{root}
	for len(stack) > 0 {
		el := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		el.Name.Space = uri(el.Name.Space, el.Line)
		for i := range el.Attrs {
			el.Attrs[i].Name.Space = uri(el.Attrs[i].Name.Space, el.Line)
		}
		for i := len(el.Children) - 1; i >= 0; i-- {
			stack = append(stack, el.Children[i])
		}
	}
	if root.NS == nil {
		root.NS = make(map[string]string, len(undeclared))
	}
	for _, p := range undeclared {
		root.NS[p] = px.choose(location, tns, p, root.Line).URI
	}
}

// ResolveQName resolves a QName value written on el in the document at
// location; an undeclared prefix is read by the rules. With a nil
// receiver it is el.ResolveQName.
func (px *Prefixes) ResolveQName(location string, el *xmlstream.Element, qname string) (xmlstream.Name, error) {
	n, err := el.ResolveQName(qname)
	if px == nil || !errors.Is(err, xmlstream.ErrUndeclaredPrefix) {
		return n, err
	}
	prefix, local, _ := strings.Cut(strings.TrimSpace(qname), ":")
	root := el
	for root.Parent != nil {
		root = root.Parent
	}
	tns, _ := root.Attr("", "targetNamespace")
	px.mu.Lock()
	defer px.mu.Unlock()
	return xmlstream.Name{Space: px.choose(location, tns, prefix, el.Line).URI, Local: local}, nil
}

// choose decides prefix for the document at location once; px.mu is held.
func (px *Prefixes) choose(location, tns, prefix string, line int) PrefixChoice {
	key := prefixKey{location, prefix}
	if d, ok := px.decided[key]; ok {
		return d.choice
	}
	c := ChoosePrefix(prefix, tns, px.bindings())
	px.decided[key] = decidedPrefix{tns: tns, choice: c}
	if len(px.warnings) < maxPrefixWarnings {
		px.warnings = append(px.warnings, c.Warning(location, line, prefix))
	} else {
		px.unlisted++
	}
	return c
}

// bindings returns the bindings to decide with; px.mu is held.
func (px *Prefixes) bindings() PrefixBindings {
	if px.given != nil {
		return px.given
	}
	for ; px.collectedN < len(px.docs); px.collectedN++ {
		d := px.docs[px.collectedN]
		px.collected.add(d.location, d.root, d.added)
	}
	return px.collected
}

// Used reports whether an undeclared prefix was met.
func (px *Prefixes) Used() bool {
	px.mu.Lock()
	defer px.mu.Unlock()
	return len(px.decided) > 0
}

// Bindings returns the bindings of every document parsed in this pass
// (built-in schemas excluded).
func (px *Prefixes) Bindings() PrefixBindings {
	px.mu.Lock()
	defer px.mu.Unlock()
	b := PrefixBindings{}
	for _, d := range px.docs {
		b.add(d.location, d.root, d.added)
	}
	return b
}

// Agrees reports whether every prefix decided in this pass reads as the
// same namespace with bindings b; when it does not, the import runs again
// with b (RunPasses).
func (px *Prefixes) Agrees(b PrefixBindings) bool {
	px.mu.Lock()
	defer px.mu.Unlock()
	for k, d := range px.decided {
		if ChoosePrefix(k.prefix, d.tns, b).URI != d.choice.URI {
			return false
		}
	}
	return true
}

// Warnings lists one warning per undeclared prefix and document, in the
// order met.
func (px *Prefixes) Warnings() []string {
	if px == nil {
		return nil
	}
	px.mu.Lock()
	defer px.mu.Unlock()
	out := append([]string(nil), px.warnings...)
	if px.unlisted > 0 {
		out = append(out, fmt.Sprintf("%d more undeclared namespace prefixes read by the same rules, not listed", px.unlisted))
	}
	return out
}

// maxPrefixPasses bounds the passes of RunPasses.
const maxPrefixPasses = 3

// RunPasses runs an import with undeclared prefixes read by the rules. A
// first pass decides with the bindings of the documents read so far; when
// a prefix was undeclared and the bindings of the whole import set read it
// otherwise, the import runs again with those (at most three passes; the
// import set is what the previous pass read). run must load its documents
// through a caching loader (NewMemoLoader), so that a pass fetches
// nothing twice.
func RunPasses[T any](run func(px *Prefixes) (T, error)) (T, error) {
	var given PrefixBindings
	for pass := 1; ; pass++ {
		px := NewPrefixes(given)
		out, err := run(px)
		if !px.Used() || pass == maxPrefixPasses {
			return out, err
		}
		b := px.Bindings()
		if px.Agrees(b) {
			return out, err
		}
		given = b
	}
}

// ParseError turns an xmlstream parse error into the ImportError naming
// location (and the line of a syntax error).
func ParseError(location string, err error) *ImportError {
	ie := &ImportError{File: location, Reason: "not well-formed XML", Err: err}
	var se *xmlstream.SyntaxError
	if errors.As(err, &se) {
		ie.Line = se.Line
	}
	return ie
}
