package dataplane

import (
	"fmt"
	"net/http"
	"runtime"
	"sort"
	"strings"
	"sync"
	"weak"

	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/routing"
)

// consumeMapping is an operation's requestMapping and responseMapping
// compiled for the consume path (the mapping language of
// docs/decisions-catalog.md):
//
//   - the REST call: restMethod and restPath of the request mapping, else
//     the operation's own; {name} segments take the top-level request
//     field name (by its contract name);
//   - query: the mapping's query parameters (name → contract path); with
//     none, GET and DELETE send every top-level scalar field (and arrays of
//     scalars, repeated) that no path segment used;
//   - body: POST, PUT and PATCH send the JSON of the request ("/" or ""
//     the whole document, a JSON Pointer a part of it, "-" nothing); GET
//     and DELETE send none;
//   - rename and omit reshape the request JSON before it is sent, and are
//     undone on the backend's answer (renamed members get their contract
//     names back) before it is converted to the SOAP response.
type consumeMapping struct {
	err    error
	method string
	path   []restSeg
	query  []restQuery
	body   string
	// reqOmit and reqRename apply to the request (contract paths split in
	// segments); respRename undoes the response renames.
	reqOmit    [][]string
	reqRename  []renameRule
	respRename []renameRule
	respOmit   bool
}

type restSeg struct {
	lit   string // escaped literal text, or "" for a parameter
	param string
}

type restQuery struct {
	name string
	path []string
}

type renameRule struct {
	path []string // contract path; the last segment is the member renamed
	name string   // JSON member name
}

// needsTree reports whether the request JSON must be decoded: renames,
// omissions, path parameters, query parameters or a partial body.
func (m *consumeMapping) needsTree() bool {
	return len(m.reqOmit) > 0 || len(m.reqRename) > 0 || len(m.query) > 0 || m.queryAll() ||
		m.body != "" && m.body != "/" && m.body != "-" || m.hasParams()
}

func (m *consumeMapping) hasParams() bool {
	for _, s := range m.path {
		if s.param != "" {
			return true
		}
	}
	return false
}

// queryAll is true when a bodiless call with no declared query sends the
// top-level fields as query parameters.
func (m *consumeMapping) queryAll() bool {
	return len(m.query) == 0 && !m.sendsBody()
}

// sendsBody reports whether the method carries the JSON body.
func (m *consumeMapping) sendsBody() bool {
	switch m.method {
	case http.MethodGet, http.MethodDelete, http.MethodHead:
		return false
	}
	return m.body != "-"
}

// consumeMappings caches compiled mappings by operation. Keys are weak so
// a route table swapped out takes its entries with it (the cleanup drops
// them); the values never point back at the operation.
var consumeMappings sync.Map // weak.Pointer[routing.Operation] → *consumeMapping

// mappingFor returns the compiled mapping of op, compiling it on first
// use. A route table is immutable, so this happens once per operation and
// table.
func mappingFor(op *routing.Operation) *consumeMapping {
	k := weak.Make(op)
	if v, ok := consumeMappings.Load(k); ok {
		return v.(*consumeMapping)
	}
	m := compileConsumeMapping(op.RESTMethod, op.RESTPath, op.RequestMapping, op.ResponseMapping)
	if v, loaded := consumeMappings.LoadOrStore(k, m); loaded {
		return v.(*consumeMapping)
	}
	runtime.AddCleanup(op, func(k weak.Pointer[routing.Operation]) { consumeMappings.Delete(k) }, k)
	return m
}

// compileConsumeMapping compiles the mapping parts; an unusable mapping is
// kept with its error, which every call then answers as 500 S2R-RUN-0500
// (readiness refuses such mappings before activation).
func compileConsumeMapping(opMethod, opPath string, reqRaw, respRaw []byte) *consumeMapping {
	m := &consumeMapping{method: opMethod, body: "/"}
	req, err := parseMapping(reqRaw)
	if err != nil {
		return &consumeMapping{err: fmt.Errorf("requestMapping: %w", err)}
	}
	resp, err := parseMapping(respRaw)
	if err != nil {
		return &consumeMapping{err: fmt.Errorf("responseMapping: %w", err)}
	}
	if req.RestMethod != "" {
		m.method = strings.ToUpper(req.RestMethod)
	}
	if m.method == "" {
		m.method = http.MethodPost
	}
	p := opPath
	if req.RestPath != "" {
		p = req.RestPath
	}
	m.path = parseRESTPath(p)
	for _, name := range sortedNames(req.Query) {
		m.query = append(m.query, restQuery{name: name, path: splitContractPath(req.Query[name])})
	}
	if req.Body != "" {
		m.body = req.Body
	}
	for _, o := range req.Omit {
		m.reqOmit = append(m.reqOmit, splitContractPath(o))
	}
	m.reqRename = renameRules(req.Rename)
	// Deepest first on the request, so parents still carry their contract
	// names while their children are renamed; shallowest first on the
	// response, so parents get their contract names back first.
	sort.SliceStable(m.reqRename, func(i, j int) bool { return len(m.reqRename[i].path) > len(m.reqRename[j].path) })
	m.respRename = renameRules(resp.Rename)
	sort.SliceStable(m.respRename, func(i, j int) bool { return len(m.respRename[i].path) < len(m.respRename[j].path) })
	m.respOmit = len(resp.Omit) > 0
	return m
}

func parseMapping(raw []byte) (catalog.MessageMapping, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return catalog.MessageMapping{Mode: catalog.ModeIdentity}, nil // no mapping stored: identity
	}
	mm, err := catalog.ParseMessageMapping(raw)
	if err != nil {
		return mm, err
	}
	if mm.Mode != "" && mm.Mode != catalog.ModeIdentity {
		return mm, fmt.Errorf("mode %q is not supported", mm.Mode)
	}
	return mm, nil
}

func renameRules(in map[string]string) []renameRule {
	out := make([]renameRule, 0, len(in))
	for _, p := range sortedNames(in) {
		out = append(out, renameRule{path: splitContractPath(p), name: in[p]})
	}
	return out
}

func sortedNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// parseRESTPath splits /countries/{code} into literal and parameter
// segments; literals are kept as written (the admin API restricts them to
// unreserved characters).
func parseRESTPath(p string) []restSeg {
	var out []restSeg
	for _, s := range strings.Split(strings.Trim(p, "/"), "/") {
		if s == "" {
			continue
		}
		if len(s) > 2 && s[0] == '{' && s[len(s)-1] == '}' {
			out = append(out, restSeg{param: s[1 : len(s)-1]})
			continue
		}
		out = append(out, restSeg{lit: s})
	}
	return out
}

// splitContractPath splits a contract path (a/b/@c) into member names.
func splitContractPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// visitParents calls f with every object holding the last segment of path
// in doc, descending through arrays transparently.
func visitParents(doc any, path []string, f func(obj map[string]any, member string)) {
	if len(path) == 0 {
		return
	}
	switch v := doc.(type) {
	case []any:
		for _, it := range v {
			visitParents(it, path, f)
		}
	case map[string]any:
		if len(path) == 1 {
			f(v, path[0])
			return
		}
		if child, ok := v[path[0]]; ok {
			visitParents(child, path[1:], f)
		}
	}
}

// mapRequest applies the request omissions and renames to doc in place.
func (m *consumeMapping) mapRequest(doc any) {
	for _, p := range m.reqOmit {
		visitParents(doc, p, func(obj map[string]any, member string) { delete(obj, member) })
	}
	for _, r := range m.reqRename {
		visitParents(doc, r.path, func(obj map[string]any, member string) {
			if v, ok := obj[member]; ok {
				delete(obj, member)
				obj[r.name] = v
			}
		})
	}
}

// unmapResponse gives renamed members of the backend's answer their
// contract names back, in place.
func (m *consumeMapping) unmapResponse(doc any) {
	for _, r := range m.respRename {
		parent := r.path[:len(r.path)-1]
		contract := r.path[len(r.path)-1]
		visitParents(doc, append(append([]string(nil), parent...), r.name), func(obj map[string]any, member string) {
			if v, ok := obj[member]; ok {
				delete(obj, member)
				obj[contract] = v
			}
		})
	}
}

// lookupPath returns the values at a contract path of doc (several when
// the path crosses arrays, every item of a final array).
func lookupPath(doc any, path []string) []any {
	if len(path) == 0 {
		if a, ok := doc.([]any); ok {
			return a
		}
		return []any{doc}
	}
	switch v := doc.(type) {
	case []any:
		var out []any
		for _, it := range v {
			out = append(out, lookupPath(it, path)...)
		}
		return out
	case map[string]any:
		if child, ok := v[path[0]]; ok {
			return lookupPath(child, path[1:])
		}
	}
	return nil
}
