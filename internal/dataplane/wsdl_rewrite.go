package dataplane

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Namespaces whose elements carry the references WSDL serving rewrites.
const (
	nsWSDL11     = "http://schemas.xmlsoap.org/wsdl/"
	nsWSDLSOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/"
	nsWSDLSOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/"
	nsXSD        = "http://www.w3.org/2001/XMLSchema"
)

// wsdlFiles indexes the stored files of a service's WSDL import for
// serving: every file gets a served name (its relative path; a file
// stored under an absolute URL gets ext/{n}/{base name}), and every
// reference a file makes (wsdl:import location, xs:import, xs:include and
// xs:redefine schemaLocation, soap:address and soap12:address location)
// is located once by byte offset, so that rendering for a public URL only
// splices new attribute values into the original bytes.
type wsdlFiles struct {
	root   string               // key of the root WSDL
	byName map[string]*wsdlFile // served name → file
	byKey  map[string]*wsdlFile // stored key → file
	norm   map[string]string    // normalized key → stored key
}

// wsdlFile is one stored file and its references.
type wsdlFile struct {
	key, name   string
	data        []byte
	contentType string
	refs        []wsdlRef
}

// wsdlRef is one attribute value to rewrite: bytes [start, end) of the
// file hold the value between its quotes.
type wsdlRef struct {
	start, end int
	quote      byte
	address    bool   // soap:address location: the public service URL
	target     string // stored key of the referenced file ("" when not stored)
}

// indexWSDLFiles indexes files with root as the root WSDL. Files that do
// not parse are served as stored, without rewriting. A file using
// namespace prefixes it never declares is served with declarations of
// the namespaces the import read them as added on its root element
// (wsdl.DeclareUndeclared), so that every client reads what s2r imported
// from a namespace-well-formed document.
func indexWSDLFiles(root string, files map[string][]byte) *wsdlFiles {
	files = wsdl.DeclareUndeclared(files)
	s := &wsdlFiles{root: root, byName: map[string]*wsdlFile{}, byKey: map[string]*wsdlFile{}, norm: map[string]string{}}
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		f := &wsdlFile{key: k, data: files[k], name: servedName(k, i)}
		s.byKey[k] = f
		s.byName[f.name] = f
		s.norm[normalizeKey(k)] = k
	}
	for _, k := range keys {
		f := s.byKey[k]
		f.refs, f.contentType = scanReferences(f.data, func(ref string) string { return s.resolve(k, ref) })
	}
	return s
}

// servedName is the path a stored file is served under.
func servedName(key string, i int) string {
	if isAbsURL(key) {
		base := "file.xml"
		if u, err := url.Parse(key); err == nil && path.Base(u.Path) != "." && path.Base(u.Path) != "/" {
			base = path.Base(u.Path)
		}
		return fmt.Sprintf("ext/%d/%s", i, base)
	}
	return normalizeKey(key)
}

func isAbsURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

func normalizeKey(k string) string {
	if isAbsURL(k) {
		return k
	}
	k = path.Clean(strings.ReplaceAll(k, "\\", "/"))
	return strings.TrimPrefix(k, "./")
}

// resolve returns the stored key that ref, written in the file stored
// under base, names; "" when the import does not hold it.
func (s *wsdlFiles) resolve(base, ref string) string {
	loc := xsd.ResolveLocation(base, ref)
	if _, ok := s.byKey[loc]; ok {
		return loc
	}
	if k, ok := s.norm[normalizeKey(loc)]; ok {
		return k
	}
	if u, err := url.PathUnescape(loc); err == nil {
		if k, ok := s.norm[normalizeKey(u)]; ok {
			return k
		}
	}
	return ""
}

// scanReferences finds the references of one document and tells a WSDL
// (application/wsdl+xml) from a schema or other XML (application/xml).
//
// The reader reads an ISO-8859-1 document holding bytes above 0x7F as its
// UTF-8 form, and its offsets count bytes of that form: the tags are
// located in the stored bytes once the whole document is read, through
// latin1Offsets, and the document keeps its charset.
func scanReferences(data []byte, resolve func(string) string) ([]wsdlRef, string) {
	ct := "application/xml"
	r := xmlstream.NewReader(data, xmlstream.Limits{MaxSize: int64(len(data)) + 1})
	var found []foundRef
	first, declEnd := true, -1
	for {
		prev := r.Offset()
		tok, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, ct + "; charset=utf-8" // not XML we can rewrite: served as stored
		}
		if declEnd < 0 {
			declEnd = r.Offset() // only the XML declaration, the first token, makes the reader transcode
		}
		if tok.Kind != xmlstream.StartElement {
			continue
		}
		if first {
			first = false
			if tok.Name.Space == nsWSDL11 && tok.Name.Local == "definitions" {
				ct = "application/wsdl+xml"
			}
		}
		attr, address := referenceAttr(tok.Name)
		if attr == "" {
			continue
		}
		value, ok := attrValue(tok.Attrs, attr)
		if !ok {
			continue
		}
		ref := wsdlRef{address: address}
		if !address {
			if ref.target = resolve(value); ref.target == "" {
				continue // not part of the import (e.g. a well-known schema): left as written
			}
		}
		found = append(found, foundRef{from: prev, to: r.Offset(), attr: attr, ref: ref})
	}
	offset := func(o int) int { return o }
	if r.Offset() != len(data) {
		offset = latin1Offsets(data, declEnd)
		ct += "; charset=iso-8859-1"
	} else {
		ct += "; charset=utf-8"
	}
	refs := make([]wsdlRef, 0, len(found))
	for _, f := range found {
		ref := f.ref
		var ok bool
		if ref.start, ref.end, ref.quote, ok = findAttr(data, offset(f.from), offset(f.to), f.attr); ok {
			refs = append(refs, ref)
		}
	}
	return refs, ct
}

// foundRef is a reference the reader found: the start tag spans reader
// offsets [from, to) and holds the attribute attr.
type foundRef struct {
	from, to int
	attr     string
	ref      wsdlRef
}

// latin1Offsets maps offsets of the UTF-8 form of an ISO-8859-1 document
// (transcoded from offset from on, where each byte above 0x7F takes two)
// to offsets of data. Offsets must come in increasing order.
func latin1Offsets(data []byte, from int) func(int) int {
	i, j := from, from // data offset, UTF-8 form offset
	return func(o int) int {
		if o <= from || from < 0 {
			return o
		}
		for j < o && i < len(data) {
			if data[i] >= 0x80 {
				j += 2
			} else {
				j++
			}
			i++
		}
		return i
	}
}

// referenceAttr names the attribute of an element that references another
// document or the service address, "" for other elements.
func referenceAttr(n xmlstream.Name) (attr string, address bool) {
	switch {
	case n.Local == "address" && (n.Space == nsWSDLSOAP11 || n.Space == nsWSDLSOAP12):
		return "location", true
	case n.Local == "import" && n.Space == nsWSDL11:
		return "location", false
	case n.Space == nsXSD && (n.Local == "import" || n.Local == "include" || n.Local == "redefine"):
		return "schemaLocation", false
	}
	return "", false
}

func attrValue(attrs []xmlstream.Attr, local string) (string, bool) {
	for _, a := range attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// findAttr finds the unprefixed attribute name in the start tag held by
// data[from:to] and returns the bounds of its value. The reader checked
// the tag, so a simple scan suffices; it fails safe (false) on anything
// unexpected, such as offsets of a transcoded document.
func findAttr(data []byte, from, to int, name string) (int, int, byte, bool) {
	if from < 0 || to > len(data) || from >= to {
		return 0, 0, 0, false
	}
	i := bytes.IndexByte(data[from:to], '<')
	if i < 0 {
		return 0, 0, 0, false
	}
	i += from + 1
	for i < to && !isXMLSpace(data[i]) && data[i] != '>' && data[i] != '/' { // element name
		i++
	}
	for i < to {
		for i < to && isXMLSpace(data[i]) {
			i++
		}
		if i >= to || data[i] == '>' || data[i] == '/' {
			return 0, 0, 0, false
		}
		ns := i
		for i < to && data[i] != '=' && !isXMLSpace(data[i]) {
			i++
		}
		an := string(data[ns:i])
		for i < to && (isXMLSpace(data[i]) || data[i] == '=') {
			i++
		}
		if i >= to || (data[i] != '"' && data[i] != '\'') {
			return 0, 0, 0, false
		}
		q := data[i]
		vs := i + 1
		ve := bytes.IndexByte(data[vs:to], q)
		if ve < 0 {
			return 0, 0, 0, false
		}
		ve += vs
		if an == name {
			return vs, ve, q, true
		}
		i = ve + 1
	}
	return 0, 0, 0, false
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// render returns f with its references rewritten: addresses to service,
// imports to fileURL of the file they name. The rest of the bytes are the
// stored ones.
func (f *wsdlFile) render(service string, fileURL func(key string) string) []byte {
	if len(f.refs) == 0 {
		return f.data
	}
	out := make([]byte, 0, len(f.data)+len(f.refs)*64)
	last := 0
	for _, ref := range f.refs {
		v := service
		if !ref.address {
			v = fileURL(ref.target)
		}
		out = append(out, f.data[last:ref.start]...)
		out = appendAttrEscaped(out, v, ref.quote)
		last = ref.end
	}
	return append(out, f.data[last:]...)
}

// appendAttrEscaped appends v escaped for an attribute value quoted by q.
func appendAttrEscaped(dst []byte, v string, q byte) []byte {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '&':
			dst = append(dst, "&amp;"...)
		case c == '<':
			dst = append(dst, "&lt;"...)
		case c == '"' && q == '"':
			dst = append(dst, "&quot;"...)
		case c == '\'' && q == '\'':
			dst = append(dst, "&apos;"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
