package wsdl

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// ErrNoRoot is wrapped by FindRoot errors.
var ErrNoRoot = errors.New("no single root WSDL")

// maxListedFiles bounds the file names a FindRoot error lists.
const maxListedFiles = 10

// rootInfo is what FindRoot learns about one file.
type rootInfo struct {
	wsdl       bool     // a WSDL document (by content, or a .wsdl that does not parse)
	hasService bool     // declares a wsdl:service
	refs       []string // resolved locations it imports or includes
}

// FindRoot picks the root WSDL of a file set (a ZIP upload) as a person
// would. The candidates are the WSDL documents, recognised by their root
// element (wsdl:definitions, or a WSDL 2.0 description) whatever their
// extension, so a saved "?wsdl" answer named .xml counts, plus .wsdl files
// that do not parse (the import then reports why). Among them, in turn:
// those no other file imports or includes (wsdl:import location,
// xs:import/include/redefine/override schemaLocation, resolved against the
// importing file); then those that declare a wsdl:service; then those at
// the shallowest directory depth. Exactly one must remain; otherwise the
// error lists the remaining candidates (sorted, at most ten), so the user
// can name the root (rootPath).
func FindRoot(files map[string][]byte) (string, error) {
	infos := make(map[string]rootInfo, len(files))
	var candidates []string
	for name, data := range files {
		info := inspectRoot(name, data)
		infos[name] = info
		if info.wsdl {
			candidates = append(candidates, name)
		}
	}
	if len(candidates) == 0 {
		names := make([]string, 0, len(files))
		for n := range files {
			names = append(names, n)
		}
		return "", fmt.Errorf("%w: the archive holds no WSDL document (files: %s)", ErrNoRoot, listNames(names))
	}
	imported := map[string]bool{}
	for name, info := range infos {
		for _, ref := range info.refs {
			if ref != name {
				imported[ref] = true
			}
		}
	}
	// keep falls back to all candidates when they all import each other.
	roots := keep(candidates, func(n string) bool { return !imported[n] })
	roots = keep(roots, func(n string) bool { return infos[n].hasService })
	minDepth := -1
	for _, n := range roots {
		if d := strings.Count(n, "/"); minDepth < 0 || d < minDepth {
			minDepth = d
		}
	}
	roots = keep(roots, func(n string) bool { return strings.Count(n, "/") == minDepth })
	if len(roots) > 1 {
		return "", fmt.Errorf("%w: %d WSDL files could each be the root (none imports the others, and they are alike in "+
			"declaring a wsdl:service and in directory depth); name the root with rootPath: %s", ErrNoRoot, len(roots), listNames(roots))
	}
	return roots[0], nil
}

// keep returns the names for which ok holds, or all of names when it
// holds for none (a preference, not a filter).
func keep(names []string, ok func(string) bool) []string {
	var out []string
	for _, n := range names {
		if ok(n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return names
	}
	return out
}

// inspectRoot reads one file's root element, its wsdl:service children and
// its references. Files that are not well-formed XML contribute nothing
// (a .wsdl still counts as a candidate).
func inspectRoot(name string, data []byte) rootInfo {
	info := rootInfo{wsdl: strings.EqualFold(path.Ext(name), ".wsdl")}
	if !looksLikeXML(data) {
		return info
	}
	r := xmlstream.NewReader(data, xmlstream.Limits{})
	var refs []string
	depth, isWSDL := 0, false
	for {
		tok, err := r.Next()
		if err != nil {
			break // io.EOF or malformed: keep what was found
		}
		switch tok.Kind {
		case xmlstream.EndElement:
			depth--
			continue
		case xmlstream.StartElement:
		default:
			continue
		}
		depth++
		if depth == 1 {
			isWSDL = tok.Name == xmlstream.Name{Space: NSWSDL, Local: "definitions"} || tok.Name.Space == NSWSDL20
			if !isWSDL && !(xsd.IsXSDNamespace(tok.Name.Space) && tok.Name.Local == "schema") {
				return info // neither WSDL nor XSD: no references to follow
			}
			info.wsdl = isWSDL
			continue
		}
		if isWSDL && depth == 2 && tok.Name == (xmlstream.Name{Space: NSWSDL, Local: "service"}) {
			info.hasService = true
		}
		if loc := referenceLocation(tok); loc != "" {
			refs = append(refs, xsd.ResolveLocation(name, loc))
		}
	}
	info.refs = refs
	return info
}

// referenceLocation returns the location a wsdl:import or an xs:import,
// include, redefine or override names, "" for any other element.
func referenceLocation(tok xmlstream.Token) string {
	attr := ""
	switch {
	case tok.Name.Space == NSWSDL && tok.Name.Local == "import":
		attr = "location"
	case xsd.IsXSDNamespace(tok.Name.Space):
		switch tok.Name.Local {
		case "import", "include", "redefine", "override":
			attr = "schemaLocation"
		}
	}
	if attr == "" {
		return ""
	}
	for _, a := range tok.Attrs {
		if a.Name.Space == "" && a.Name.Local == attr {
			return strings.TrimSpace(a.Value)
		}
	}
	return ""
}

// looksLikeXML reports whether data starts (after a byte order mark and
// white space) with '<'.
func looksLikeXML(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) > 0 && data[0] == '<'
}

// listNames renders sorted, quoted names, at most maxListedFiles of them.
func listNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	names = append([]string(nil), names...)
	sort.Strings(names)
	shown := names[:min(len(names), maxListedFiles)]
	quoted := make([]string, len(shown))
	for i, n := range shown {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	s := strings.Join(quoted, ", ")
	if len(names) > maxListedFiles {
		s += fmt.Sprintf(" and %d more", len(names)-maxListedFiles)
	}
	return s
}
