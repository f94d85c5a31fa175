package wsdl

import (
	"context"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Reference is one wsdl:import, xs:import, xs:include or xs:redefine found
// while walking a WSDL and the documents it reaches, with whether it loads.
type Reference struct {
	From      string // the document holding the reference
	Line      int
	Kind      string // "wsdl:import", "xs:import", "xs:include", "xs:redefine", "xs:override"
	Namespace string // the namespace attribute of imports
	Location  string // as written; empty for imports without location
	Resolved  string // the absolute location tried (or the built-in one)
	Builtin   bool   // served from s2r's built-in schemas
	Error     string // why it does not load; empty when it does
}

// References walks the documents reachable from root through loader and
// lists every import and include, continuing past the ones that fail, for
// the external-reference preview and repair reports. Undeclared prefixes
// are read as an import reads them (xsd.Prefixes, one pass); each document
// is visited once.
func References(ctx context.Context, loader xsd.Loader, root string) ([]Reference, error) {
	w := &refWalker{ctx: ctx, loader: xsd.Loaders{xsd.BuiltinLoader{}, loader}, seen: map[string]bool{}, prefixes: xsd.NewPrefixes(nil)}
	data, resolved, err := w.loader.Load(ctx, root)
	if err != nil {
		return nil, &ImportError{File: root, Reason: "cannot load document", Err: err}
	}
	if err := w.walk(data, resolved); err != nil {
		return nil, err
	}
	return w.refs, nil
}

type refWalker struct {
	// prefixes reads undeclared prefixes as an import does (one pass).
	prefixes *xsd.Prefixes
	ctx      context.Context
	loader   xsd.Loader
	seen     map[string]bool
	refs     []Reference
}

func (w *refWalker) walk(data []byte, location string) error {
	if w.seen[location] || len(w.seen) >= xsd.MaxDocuments {
		return nil
	}
	w.seen[location] = true
	root, err := w.prefixes.Parse(data, location, xmlstream.Limits{})
	if err != nil {
		return err
	}
	var next []Reference
	stack := []*xmlstream.Element{root}
	for len(stack) > 0 {
		el := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if r, ok := referenceOf(el, location); ok {
			w.refs = append(w.refs, w.try(r))
			if w.refs[len(w.refs)-1].Error == "" {
				next = append(next, w.refs[len(w.refs)-1])
			}
			continue
		}
		for i := len(el.Children) - 1; i >= 0; i-- {
			stack = append(stack, el.Children[i])
		}
	}
	for _, r := range next {
		if w.seen[r.Resolved] {
			continue
		}
		data, resolved, err := w.loader.Load(w.ctx, r.Resolved)
		if err != nil {
			continue
		}
		if err := w.walk(data, resolved); err != nil {
			return err
		}
	}
	return nil
}

// referenceOf recognizes an import or include element.
func referenceOf(el *xmlstream.Element, from string) (Reference, bool) {
	r := Reference{From: from, Line: el.Line}
	r.Namespace, _ = el.Attr("", "namespace")
	switch {
	case el.Name.Space == NSWSDL && el.Name.Local == "import":
		r.Kind = "wsdl:import"
		r.Location, _ = el.Attr("", "location")
	case xsd.IsXSDNamespace(el.Name.Space) && (el.Name.Local == "import" || el.Name.Local == "include" || el.Name.Local == "redefine" || el.Name.Local == "override"):
		r.Kind = "xs:" + el.Name.Local
		r.Location, _ = el.Attr("", "schemaLocation")
	default:
		return r, false
	}
	r.Location = strings.TrimSpace(r.Location)
	return r, true
}

// try resolves and loads one reference, falling back to built-ins for
// well-known namespaces as the importer does.
func (w *refWalker) try(r Reference) Reference {
	builtin, hasBuiltin := xsd.WellKnownLocation(r.Namespace)
	if r.Location == "" {
		switch {
		case hasBuiltin:
			r.Resolved, r.Builtin = builtin, true
		case r.Kind != "xs:import":
			r.Error = "no location"
		}
		return r
	}
	r.Resolved = xsd.ResolveLocation(r.From, r.Location)
	if _, resolved, err := w.loader.Load(w.ctx, r.Resolved); err == nil {
		r.Resolved = resolved
		r.Builtin = strings.HasPrefix(resolved, "builtin:")
		return r
	} else if hasBuiltin && r.Kind == "xs:import" {
		r.Resolved, r.Builtin = builtin, true
	} else {
		r.Error = err.Error()
	}
	return r
}
