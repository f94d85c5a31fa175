package security

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"sync"
	"testing"
)

// xmlTarget is one way of delivering an XML document to the server.
type xmlTarget struct {
	name string
	kind docKind
	// limit is the entry point's body limit in bytes: a size attack over it
	// is refused with 413 before it is parsed.
	limit int64
	// passthrough targets forward bytes without parsing them (the
	// gateway): only the size limit refuses.
	passthrough bool
	// opaque targets keep the document as data (ingest payloads): it is
	// stored or refused, never parsed; only the size limit must refuse.
	opaque bool
	// send delivers p; chunked hides its length.
	send func(t *testing.T, a xmlAttack, chunked bool) resp
}

// bodyLen returns p's length as sent: -1 when chunked.
func bodyLen(p payload, chunked bool) int64 {
	if chunked {
		return -1
	}
	return p.n
}

// post sends body to path with ctype and an optional identity, with an
// explicit Content-Length or chunked.
func (s *server) post(t *testing.T, path, ctype, email string, body io.Reader, n int64, hdr map[string]string) resp {
	t.Helper()
	req, err := http.NewRequest("POST", s.base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = n
	if n < 0 {
		req.ContentLength = -1
		req.Body = io.NopCloser(body) // hide the length from net/http
	}
	req.Header.Set("Content-Type", ctype)
	if email != "" {
		req.Header.Set("X-Idp-Authenticated-User-Email", email)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := httpClient.Do(req)
	if err != nil {
		// The server answered and closed while the body was still being
		// written: a refusal without an answer the client could read.
		return resp{Status: -1, Body: []byte(err.Error())}
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{Status: res.StatusCode, Header: res.Header, Body: b}
}

// formFields are the text fields a multipart import gets, by name.
func formFields(schema map[string]any, key string) map[string]string {
	out := map[string]string{}
	props, _ := schema["properties"].(map[string]any)
	for name := range props {
		switch name {
		case "environment":
			out[name] = "dev"
		case "serviceKey":
			out[name] = key
		}
	}
	return out
}

// multipartBody streams a multipart/form-data body with fields and one
// file part holding p; it returns the body, its length (when p's is
// known) and its Content-Type.
func multipartBody(fields map[string]string, filename string, p payload) (io.Reader, int64, string) {
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+filename+`"`)
	h.Set("Content-Type", "application/octet-stream")
	mw.CreatePart(h)
	tail := "\r\n--" + mw.Boundary() + "--\r\n"
	n := int64(-1)
	if p.n >= 0 {
		n = int64(head.Len()) + p.n + int64(len(tail))
	}
	return io.MultiReader(&head, p.r, strings.NewReader(tail)), n, mw.FormDataContentType()
}

// jsonBody streams the JSON body schema describes with the member xml
// (at any depth of items) holding p as a string.
func jsonBodyWith(schema map[string]any, doc *openAPIDoc, member, key string, p payload) (io.Reader, int64) {
	const mark = "\x00MARK\x00"
	v := fillSchema(doc, schema, member, mark, key)
	b, _ := json.Marshal(v)
	before, after, _ := bytes.Cut(b, []byte(`"\u0000MARK\u0000"`))
	content := io.Reader(&jsonString{src: p.r})
	n := p.n // the streamed attacks need no escaping
	if sr, ok := p.r.(*strings.Reader); ok {
		escaped, _ := io.ReadAll(&jsonString{src: sr})
		content, n = bytes.NewReader(escaped), int64(len(escaped))
	}
	if n >= 0 {
		n += int64(len(before)) + 2 + int64(len(after))
	}
	return io.MultiReader(bytes.NewReader(before), strings.NewReader(`"`), content, strings.NewReader(`"`),
		bytes.NewReader(after)), n
}

// fillSchema builds a minimal value of schema: member set to value,
// environment and serviceKey filled, arrays of one item, other required
// members given a harmless value of their type.
func fillSchema(doc *openAPIDoc, schema map[string]any, member, value, key string) any {
	s := doc.resolve(schema)
	switch s["type"] {
	case "array":
		return []any{fillSchema(doc, asMap(s["items"]), member, value, key)}
	case "object":
	default:
		switch s["type"] {
		case "boolean":
			return false
		case "integer", "number":
			return 1
		}
		return "x"
	}
	out := map[string]any{}
	required := map[string]bool{}
	for _, r := range asSlice(s["required"]) {
		required[fmt.Sprint(r)] = true
	}
	props, _ := s["properties"].(map[string]any)
	for name, ps := range props {
		switch {
		case name == member:
			out[name] = value
		case name == "environment":
			out[name] = "dev"
		case name == "serviceKey":
			out[name] = key
		case name == "items" || required[name]:
			out[name] = fillSchema(doc, asMap(ps), member, value, key)
		}
	}
	return out
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

// zips caches the ZIP of each attack (deflating 200 MB takes a while).
var zips sync.Map // attack name -> []byte

// zipOf returns a ZIP holding a's document as service.wsdl (the 200 MB
// document deflates to a small archive: a ZIP bomb).
func zipOf(t *testing.T, a xmlAttack, env attackEnv) payload {
	if b, ok := zips.Load(a.name); ok {
		return payload{bytes.NewReader(b.([]byte)), int64(len(b.([]byte)))}
	}
	p := a.build(wsdlDoc, env)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("service.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(w, p.r); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	zips.Store(a.name, buf.Bytes())
	return payload{bytes.NewReader(buf.Bytes()), int64(buf.Len())}
}

// docServer serves attack documents for URL imports: /{attack}/{kind}
// streams the attack, /ref/{attack} a valid WSDL whose schema imports the
// attack as a remote XSD.
type docServer struct {
	*httptest.Server
	env     attackEnv
	mu      sync.Mutex
	fetched map[string]int
}

func newDocServer(t *testing.T, env attackEnv) *docServer {
	d := &docServer{env: env, fetched: map[string]int{}}
	d.Server = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.Close)
	return d
}

func (d *docServer) serve(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.fetched[r.URL.Path]++
	d.mu.Unlock()
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if len(parts) != 2 {
		http.NotFound(w, r)
		return
	}
	var a *xmlAttack
	for i := range xmlAttacks {
		if slug(xmlAttacks[i].name) == parts[1] {
			a = &xmlAttacks[i]
		}
	}
	if a == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/xml")
	switch parts[0] {
	case "wsdl":
		p := a.build(wsdlDoc, d.env)
		io.Copy(w, p.r)
	case "xsd":
		p := a.build(xsdDoc, d.env)
		io.Copy(w, p.r)
	case "ref":
		io.WriteString(w, `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema" `+
			`targetNamespace="urn:sec"><types><xs:schema targetNamespace="urn:sec"><xs:import namespace="urn:sec-remote" schemaLocation="`+
			d.URL+`/xsd/`+parts[1]+`"/></xs:schema></types></definitions>`)
	default:
		http.NotFound(w, r)
	}
}

// slug turns an attack name into a path segment.
func slug(name string) string {
	return strings.NewReplacer(" ", "-", "/", "-").Replace(name)
}
