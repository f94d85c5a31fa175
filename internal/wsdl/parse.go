package wsdl

import (
	"context"
	"fmt"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// ErrWSDL20 is the reason given for WSDL 2.0 documents.
const ErrWSDL20 = "WSDL 2.0 is not supported; s2r imports WSDL 1.1"

// wdoc is one loaded WSDL document.
type wdoc struct {
	root     *xmlstream.Element
	location string
	tns      string
}

// ref is a named WSDL component and the document declaring it.
type ref struct {
	el  *xmlstream.Element
	doc *wdoc
}

// parser loads a WSDL and what it imports, then binds operations.
type parser struct {
	ctx      context.Context
	loader   xsd.Loader
	limits   xmlstream.Limits
	schemas  *xsd.Set
	loaded   map[string]bool
	docs     []*wdoc
	messages map[xmlstream.Name]ref
	ports    map[xmlstream.Name]ref // portTypes
	bindings map[xmlstream.Name]ref
	// bindingOrder lists the bindings in document order.
	bindingOrder []xmlstream.Name
	services     []ref
	policies     map[string]*xmlstream.Element // by wsu:Id or Id
	warnings     []string
	bound        map[*xmlstream.Element]boundBinding
	ptIndex      map[*xmlstream.Element]map[string][]*xmlstream.Element
	// partStandIns are the xs:anyType stand-ins of parts (part), and
	// leftOut the first reason an operation or port was left out, the
	// refusal when nothing usable remains.
	partStandIns []*xsd.Unresolved
	leftOut      *ImportError
	// prefixes reads undeclared prefixes, shared with schemas.
	prefixes *xsd.Prefixes
}

// ParseFiles imports the WSDL at root from an in-memory file set (a ZIP
// upload or a multi-file import); remote imports of well-known schemas
// resolve to built-in copies, other remote imports fail.
func ParseFiles(ctx context.Context, root string, files map[string][]byte) (*Definitions, error) {
	return Parse(ctx, xsd.FileSet(files), root, xmlstream.Limits{})
}

// Parse imports the WSDL at location, loading it and its imports through
// loader. Undeclared namespace prefixes are read by the rules of
// xsd.Prefixes, each with a warning; when the bindings of the whole import
// set read a prefix otherwise than those seen when it was met, the import
// runs again (loading nothing twice).
func Parse(ctx context.Context, loader xsd.Loader, location string, limits xmlstream.Limits) (*Definitions, error) {
	memo := xsd.NewMemoLoader(loader)
	return xsd.RunPasses(func(px *xsd.Prefixes) (*Definitions, error) {
		return parseOnce(ctx, memo, location, limits, px)
	})
}

// parseOnce is one pass of Parse.
func parseOnce(ctx context.Context, loader xsd.Loader, location string, limits xmlstream.Limits, px *xsd.Prefixes) (*Definitions, error) {
	p := &parser{
		ctx: ctx, loader: xsd.Loaders{xsd.BuiltinLoader{}, loader}, limits: limits,
		schemas: xsd.NewSet(loader, limits), loaded: map[string]bool{},
		messages: map[xmlstream.Name]ref{}, ports: map[xmlstream.Name]ref{},
		bindings: map[xmlstream.Name]ref{}, policies: map[string]*xmlstream.Element{},
		bound:    map[*xmlstream.Element]boundBinding{},
		ptIndex:  map[*xmlstream.Element]map[string][]*xmlstream.Element{},
		prefixes: px,
	}
	p.schemas.SetLenient()
	p.schemas.SetPrefixes(px)
	if err := p.load(location, "", 0); err != nil {
		return nil, err
	}
	if err := p.schemas.Finish(ctx); err != nil {
		return nil, err
	}
	defs, err := p.build()
	if err != nil {
		return nil, err
	}
	return defs, nil
}

// load reads the document at location; from and line name the importing
// document for errors.
func (p *parser) load(location, from string, line int) error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	data, resolved, err := p.loader.Load(p.ctx, location)
	if err != nil {
		if from == "" {
			return &ImportError{File: location, Reason: "cannot load document", Err: err}
		}
		return &ImportError{File: from, Line: line, Reason: fmt.Sprintf("cannot load %q", location), Err: err}
	}
	if p.loaded[resolved] {
		return nil
	}
	if len(p.loaded) >= xsd.MaxDocuments {
		return &ImportError{File: from, Line: line, Reason: fmt.Sprintf("more than %d WSDL documents", xsd.MaxDocuments)}
	}
	p.loaded[resolved] = true
	root, err := p.prefixes.Parse(data, resolved, p.limits)
	if err != nil {
		return err
	}
	switch {
	case root.Name.Space == NSWSDL20 || (root.Name.Local == "description" && root.Name.Space != NSWSDL):
		return &ImportError{File: resolved, Line: root.Line, Reason: ErrWSDL20}
	case xsd.IsXSDNamespace(root.Name.Space) && root.Name.Local == "schema":
		return p.schemas.AddSchema(p.ctx, root, resolved)
	case root.Name.Space != NSWSDL || root.Name.Local != "definitions":
		return &ImportError{File: resolved, Line: root.Line, Reason: fmt.Sprintf("expected a wsdl:definitions root element, found %s", showName(root.Name))}
	}
	doc := &wdoc{root: root, location: resolved}
	doc.tns, _ = root.Attr("", "targetNamespace")
	p.docs = append(p.docs, doc)
	return p.index(doc)
}

// index records doc's components and follows its imports and schemas.
func (p *parser) index(doc *wdoc) error {
	for _, ch := range doc.root.Children {
		p.indexPolicies(ch)
		if ch.Name.Space != NSWSDL {
			if xsd.IsXSDNamespace(ch.Name.Space) && ch.Name.Local == "import" {
				p.warnf("%s:%d: xs:import outside wsdl:types ignored", doc.location, ch.Line)
			}
			continue
		}
		name, _ := ch.Attr("", "name")
		qn := xmlstream.Name{Space: doc.tns, Local: name}
		switch ch.Name.Local {
		case "import":
			if err := p.wsdlImport(doc, ch); err != nil {
				return err
			}
		case "types":
			if err := p.types(doc, ch); err != nil {
				return err
			}
		case "message":
			addRef(p.messages, qn, ref{ch, doc})
		case "portType":
			addRef(p.ports, qn, ref{ch, doc})
		case "binding":
			if _, dup := p.bindings[qn]; !dup {
				p.bindingOrder = append(p.bindingOrder, qn)
			}
			addRef(p.bindings, qn, ref{ch, doc})
		case "service":
			p.services = append(p.services, ref{ch, doc})
		}
	}
	return nil
}

func addRef(m map[xmlstream.Name]ref, name xmlstream.Name, r ref) {
	if _, dup := m[name]; !dup {
		m[name] = r
	}
}

func (p *parser) wsdlImport(doc *wdoc, imp *xmlstream.Element) error {
	loc, _ := imp.Attr("", "location")
	if strings.TrimSpace(loc) == "" {
		ns, _ := imp.Attr("", "namespace")
		p.warnf("%s:%d: wsdl:import of %s without location ignored", doc.location, imp.Line, ns)
		return nil
	}
	return p.load(xsd.ResolveLocation(doc.location, loc), doc.location, imp.Line)
}

func (p *parser) types(doc *wdoc, types *xmlstream.Element) error {
	for _, ch := range types.Children {
		if xsd.IsXSDNamespace(ch.Name.Space) && ch.Name.Local == "schema" {
			if err := p.schemas.AddSchema(p.ctx, ch, doc.location); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexPolicies records WS-Policy expressions by their Id, for MTOM hints.
func (p *parser) indexPolicies(el *xmlstream.Element) {
	if el.Name.Local != "Policy" {
		return
	}
	for _, a := range el.Attrs {
		if a.Name.Local == "Id" {
			p.policies[a.Value] = el
		}
	}
}

func (p *parser) warnf(format string, args ...any) {
	p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
}

// resolve resolves a QName attribute value written on el of doc.
func (p *parser) resolve(doc *wdoc, el *xmlstream.Element, attr string) (xmlstream.Name, error) {
	v, _ := el.Attr("", attr)
	v = strings.TrimSpace(v)
	if v == "" {
		return xmlstream.Name{}, &ImportError{File: doc.location, Line: el.Line, Reason: fmt.Sprintf("%s without %s attribute", showName(el.Name), attr)}
	}
	n, err := p.prefixes.ResolveQName(doc.location, el, v)
	if err != nil {
		return xmlstream.Name{}, &ImportError{File: doc.location, Line: el.Line, Reason: fmt.Sprintf("cannot resolve QName %q", v), Err: err}
	}
	return n, nil
}

// lookup finds a component by QName. Lenient fallbacks, each reported as
// a warning: an unprefixed name that resolved to no namespace (or to the
// WSDL namespace, through a default namespace) also matches the document's
// target namespace; failing that, a name whose local part is unique among
// the declared components matches it.
func (p *parser) lookup(m map[xmlstream.Name]ref, n xmlstream.Name, doc *wdoc, at *xmlstream.Element) (ref, bool) {
	if r, ok := m[n]; ok {
		return r, true
	}
	if n.Space == "" || n.Space == NSWSDL {
		if r, ok := m[xmlstream.Name{Space: doc.tns, Local: n.Local}]; ok {
			return r, true
		}
	}
	var found []ref
	for name, r := range m {
		if name.Local == n.Local {
			found = append(found, r)
		}
	}
	if len(found) == 1 {
		p.warnf("%s:%d: %s is not declared; using %s of namespace %q", doc.location, at.Line, showName(n), n.Local, found[0].doc.tns)
		return found[0], true
	}
	return ref{}, false
}

func showName(n xmlstream.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + n.Space + "}" + n.Local
}
