package xsd

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// schemaDoc is one schema document (or inline schema) in a Set.
type schemaDoc struct {
	root     *xmlstream.Element
	location string
	tns      string
	// chameleon is set for an included schema without targetNamespace: it
	// takes its includer's namespace, also for unprefixed references.
	chameleon          bool
	elementQualified   bool
	attributeQualified bool
	// px reads undeclared prefixes of QName values (nil: strict).
	px *Prefixes
}

// decl is a top-level schema component: its declaring element and document.
type decl struct {
	el  *xmlstream.Element
	doc *schemaDoc
}

// Set is a set of schema documents, indexed by component name, compiled
// lazily into contracts: a component is compiled when first asked for, and
// then once. A Set is safe for concurrent use; the compiled graphs it hands
// out are never changed afterwards.
type Set struct {
	mu     sync.Mutex
	loader Loader
	limits xmlstream.Limits

	docs   []*schemaDoc
	loaded map[string]bool // resolved location + "|" + namespace
	// nsWithoutLocation are namespaces imported without schemaLocation,
	// resolved to built-ins by Finish when nothing in the set declares them.
	nsWithoutLocation []string

	elements   map[xmlstream.Name]decl
	types      map[xmlstream.Name]decl
	groups     map[xmlstream.Name]decl
	attrGroups map[xmlstream.Name]decl
	attributes map[xmlstream.Name]decl
	// substitutions maps a head element to the members naming it directly.
	substitutions map[xmlstream.Name][]xmlstream.Name
	// derivations maps a type to the named types deriving from it directly.
	derivations map[xmlstream.Name][]xmlstream.Name

	warnings []string
	c        compiler

	// lenient makes references to undeclared components compile to
	// stand-ins recorded in unresolved (SetLenient).
	lenient    bool
	unresolved []*Unresolved

	// prefixes reads undeclared prefixes (SetPrefixes); nil is strict.
	prefixes *Prefixes
}

// NewSet returns an empty Set reading imports and includes through loader
// (which may be nil: then only built-in schemas can be imported) and parsing
// them with limits.
func NewSet(loader Loader, limits xmlstream.Limits) *Set {
	if loader == nil {
		loader = BuiltinLoader{}
	} else {
		loader = Loaders{BuiltinLoader{}, loader}
	}
	s := &Set{
		loader: loader, limits: limits, loaded: map[string]bool{},
		elements: map[xmlstream.Name]decl{}, types: map[xmlstream.Name]decl{},
		groups: map[xmlstream.Name]decl{}, attrGroups: map[xmlstream.Name]decl{},
		attributes:    map[xmlstream.Name]decl{},
		substitutions: map[xmlstream.Name][]xmlstream.Name{},
		derivations:   map[xmlstream.Name][]xmlstream.Name{},
	}
	s.c.init(s)
	return s
}

// CompileSchemas builds a Set from schema documents keyed by path; imports
// and includes resolve against the same files and the built-in schemas.
// Every global element and type is compiled, so errors surface here.
//
// Undeclared prefixes are read by the import's rules (Prefixes), each with
// a warning in Warnings.
func CompileSchemas(files map[string][]byte) (*Set, error) {
	ctx := context.Background()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	return RunPasses(func(px *Prefixes) (*Set, error) {
		s := NewSet(FileSet(files), xmlstream.Limits{})
		s.SetPrefixes(px)
		for _, name := range names {
			if err := s.LoadSchema(ctx, name); err != nil {
				return nil, err
			}
		}
		if err := s.Finish(ctx); err != nil {
			return nil, err
		}
		if err := s.CompileAll(); err != nil {
			return nil, err
		}
		return s, nil
	})
}

// SetPrefixes makes the Set read the undeclared prefixes of the documents
// it loads, and of QName values in every schema added, with px (shared
// with the WSDL import of the same pass). Call it before loading.
func (s *Set) SetPrefixes(px *Prefixes) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prefixes = px
}

// ParseDocument parses one document, turning syntax errors into an
// ImportError naming location and line.
func ParseDocument(data []byte, location string, limits xmlstream.Limits) (*xmlstream.Element, error) {
	root, err := xmlstream.Parse(data, limits)
	if err != nil {
		return nil, ParseError(location, err)
	}
	if root == nil {
		return nil, &ImportError{File: location, Reason: "empty document"}
	}
	return root, nil
}

// LoadSchema loads the schema document at location and what it imports.
func (s *Set) LoadSchema(ctx context.Context, location string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loadSchema(ctx, location, "", nil, "", 0)
}

// AddSchema adds an already parsed xs:schema element found in the document
// at location (an inline schema of a WSDL), and what it imports.
func (s *Set) AddSchema(ctx context.Context, el *xmlstream.Element, location string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addSchema(ctx, el, location, "", false)
}

// Warnings lists what was tolerated while loading: the undeclared
// prefixes read (SetPrefixes) first.
func (s *Set) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(s.prefixes.Warnings(), s.warnings...)
}

// Finish resolves namespaces imported without a schemaLocation that no
// loaded schema declares to the built-in schemas; call it after the last
// AddSchema or LoadSchema.
func (s *Set) Finish(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ns := range s.nsWithoutLocation {
		if s.declares(ns) {
			continue
		}
		if loc, ok := WellKnownLocation(ns); ok {
			if err := s.loadSchema(ctx, loc, "", nil, "", 0); err != nil {
				return err
			}
		}
	}
	s.nsWithoutLocation = nil
	return nil
}

func (s *Set) declares(ns string) bool {
	for _, d := range s.docs {
		if d.tns == ns {
			return true
		}
	}
	return false
}

// loadSchema loads location; chameleonNS is the includer's namespace for an
// include (adopted when the document has none). from/line name the
// referencing document for errors.
func (s *Set) loadSchema(ctx context.Context, location, chameleonNS string, fromEl *xmlstream.Element, from string, line int) error {
	data, resolved, err := s.loader.Load(ctx, location)
	if err != nil {
		if from == "" {
			return &ImportError{File: location, Reason: "cannot load document", Err: err}
		}
		return &ImportError{File: from, Line: line, Reason: fmt.Sprintf("cannot load %q", location), Err: err}
	}
	key := resolved + "|" + chameleonNS
	if s.loaded[key] {
		return nil
	}
	if len(s.loaded) >= MaxDocuments {
		return errorf(from, line, "more than %d schema documents", MaxDocuments)
	}
	s.loaded[key] = true
	root, err := s.prefixes.Parse(data, resolved, s.limits)
	if err != nil {
		return err
	}
	if root.Name.Space == nsWSDL11 && root.Name.Local == "definitions" {
		return s.addWSDLSchemas(ctx, root, resolved, chameleonNS)
	}
	if !isXS(root, "schema") {
		return errorf(resolved, root.Line, "expected an xs:schema root element, found %s", displayName(root.Name))
	}
	return s.addSchema(ctx, root, resolved, chameleonNS, true)
}

// MaxDocuments caps the documents one import may load, so that a hostile
// server cannot make an import fetch without end.
const MaxDocuments = 1000

const nsWSDL11 = "http://schemas.xmlsoap.org/wsdl/"

// addWSDLSchemas adds the inline schemas of a WSDL document that a
// schemaLocation points at (some toolkits publish schemas that way).
func (s *Set) addWSDLSchemas(ctx context.Context, root *xmlstream.Element, location, chameleonNS string) error {
	for _, types := range root.Children {
		if types.Name.Space != nsWSDL11 || types.Name.Local != "types" {
			continue
		}
		for _, sch := range types.Children {
			if isXS(sch, "schema") {
				if err := s.addSchema(ctx, sch, location, chameleonNS, false); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (s *Set) addSchema(ctx context.Context, el *xmlstream.Element, location, chameleonNS string, keyed bool) error {
	tns, _ := el.Attr("", "targetNamespace")
	doc := &schemaDoc{root: el, location: location, tns: tns, px: s.prefixes}
	if tns == "" && chameleonNS != "" {
		doc.tns, doc.chameleon = chameleonNS, true
	}
	if v, _ := el.Attr("", "elementFormDefault"); v == "qualified" {
		doc.elementQualified = true
	}
	if v, _ := el.Attr("", "attributeFormDefault"); v == "qualified" {
		doc.attributeQualified = true
	}
	if !keyed { // an inline schema: identified by document, line and namespace
		key := location + "#" + fmt.Sprint(el.Line) + "|" + doc.tns
		if s.loaded[key] {
			return nil
		}
		s.loaded[key] = true
	}
	s.docs = append(s.docs, doc)
	s.index(doc)
	return s.followReferences(ctx, doc)
}

// followReferences loads what doc imports, includes or redefines.
func (s *Set) followReferences(ctx context.Context, doc *schemaDoc) error {
	for _, ch := range doc.root.Children {
		if !xsdNamespaces[ch.Name.Space] {
			continue
		}
		loc, _ := ch.Attr("", "schemaLocation")
		switch ch.Name.Local {
		case "include", "redefine", "override":
			if ch.Name.Local != "include" {
				s.warnings = append(s.warnings, fmt.Sprintf("%s:%d: xs:%s treated as xs:include", doc.location, ch.Line, ch.Name.Local))
			}
			if loc == "" {
				return errorf(doc.location, ch.Line, "xs:%s without schemaLocation", ch.Name.Local)
			}
			if err := s.loadSchema(ctx, ResolveLocation(doc.location, loc), doc.tns, ch, doc.location, ch.Line); err != nil {
				return err
			}
		case "import":
			if err := s.followImport(ctx, doc, ch, loc); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Set) followImport(ctx context.Context, doc *schemaDoc, imp *xmlstream.Element, loc string) error {
	ns, _ := imp.Attr("", "namespace")
	if xsdNamespaces[ns] {
		return nil
	}
	builtin, hasBuiltin := WellKnownLocation(ns)
	if loc == "" {
		s.nsWithoutLocation = append(s.nsWithoutLocation, ns)
		return nil
	}
	target := ResolveLocation(doc.location, loc)
	if hasBuiltin && isURL(target) {
		target = builtin
	}
	err := s.loadSchema(ctx, target, "", imp, doc.location, imp.Line)
	if err != nil && hasBuiltin {
		s.warnings = append(s.warnings, fmt.Sprintf("%v; using the built-in schema of %s", err, ns))
		return s.loadSchema(ctx, builtin, "", imp, doc.location, imp.Line)
	}
	return err
}

// index records doc's top-level components; the first declaration of a
// name wins.
func (s *Set) index(doc *schemaDoc) {
	for _, ch := range doc.root.Children {
		if !xsdNamespaces[ch.Name.Space] {
			continue
		}
		name, ok := ch.Attr("", "name")
		if !ok {
			continue
		}
		qn := xmlstream.Name{Space: doc.tns, Local: strings.TrimSpace(name)}
		d := decl{el: ch, doc: doc}
		switch ch.Name.Local {
		case "element":
			if addDecl(s.elements, qn, d) {
				s.indexSubstitution(doc, ch, qn)
			}
		case "complexType", "simpleType":
			if addDecl(s.types, qn, d) {
				s.indexDerivation(doc, ch, qn)
			}
		case "group":
			addDecl(s.groups, qn, d)
		case "attributeGroup":
			addDecl(s.attrGroups, qn, d)
		case "attribute":
			addDecl(s.attributes, qn, d)
		}
	}
}

func addDecl(m map[xmlstream.Name]decl, name xmlstream.Name, d decl) bool {
	if _, dup := m[name]; dup {
		return false
	}
	m[name] = d
	return true
}

func (s *Set) indexSubstitution(doc *schemaDoc, el *xmlstream.Element, name xmlstream.Name) {
	v, ok := el.Attr("", "substitutionGroup")
	if !ok {
		return
	}
	for _, head := range strings.Fields(v) { // XSD 1.1 allows a list
		if hn, err := doc.resolve(el, head); err == nil {
			s.substitutions[hn] = append(s.substitutions[hn], name)
		}
	}
}

func (s *Set) indexDerivation(doc *schemaDoc, el *xmlstream.Element, name xmlstream.Name) {
	base := derivationBase(el)
	if base == nil {
		return
	}
	v, _ := base.Attr("", "base")
	if bn, err := doc.resolve(base, v); err == nil && v != "" {
		s.derivations[bn] = append(s.derivations[bn], name)
	}
}

// derivationBase returns the extension or restriction element of a type
// definition, nil when it derives from nothing named.
func derivationBase(el *xmlstream.Element) *xmlstream.Element {
	for _, ch := range el.Children {
		switch {
		case isXS(ch, "restriction") && el.Name.Local == "simpleType":
			return ch
		case isXS(ch, "complexContent") || isXS(ch, "simpleContent"):
			for _, d := range ch.Children {
				if isXS(d, "extension") || isXS(d, "restriction") {
					return d
				}
			}
		}
	}
	return nil
}

// resolve resolves a QName value written on el in this document.
func (d *schemaDoc) resolve(el *xmlstream.Element, qname string) (xmlstream.Name, error) {
	n, err := d.px.ResolveQName(d.location, el, strings.TrimSpace(qname))
	if err != nil {
		return xmlstream.Name{}, errorf(d.location, el.Line, "cannot resolve QName %q: %v", qname, err)
	}
	if n.Space == "" && d.chameleon {
		n.Space = d.tns
	}
	return n, nil
}

// isXS reports whether el is the XML Schema element local.
func isXS(el *xmlstream.Element, local string) bool {
	return el.Name.Local == local && xsdNamespaces[el.Name.Space]
}

// displayName renders a name as {namespace}local.
func displayName(n xmlstream.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + n.Space + "}" + n.Local
}

// Elements lists the names of the global elements, sorted.
func (s *Set) Elements() []xmlstream.Name { return s.sortedNames(s.elements) }

// Types lists the names of the global types, sorted.
func (s *Set) Types() []xmlstream.Name { return s.sortedNames(s.types) }

func (s *Set) sortedNames(m map[xmlstream.Name]decl) []xmlstream.Name {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]xmlstream.Name, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Space != out[j].Space {
			return out[i].Space < out[j].Space
		}
		return out[i].Local < out[j].Local
	})
	return out
}
