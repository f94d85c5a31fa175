package security

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// rawMark stands in a marshalled body for a raw JSON fragment.
const rawMark = "\x00RAW\x00"

// withRaw marshals v and puts raw (any bytes, valid JSON or not) where
// rawMark is.
func withRaw(v any, raw string) []byte {
	b, _ := json.Marshal(v)
	return bytes.Replace(b, []byte(`"\u0000RAW\u0000"`), []byte(raw), 1)
}

// bodyMutation is one hostile body for a route.
type bodyMutation struct {
	name string
	body []byte
}

// genericBodies are sent to every route that takes a body, whatever its
// schema.
var genericBodies = []bodyMutation{
	{"truncated JSON", []byte(`{"a":`)},
	{"not JSON", []byte(`<x/>`)},
	{"array", []byte(`[]`)},
	{"string", []byte(`"x"`)},
	{"number", []byte(`1e999`)},
	{"null", []byte(`null`)},
	{"invalid UTF-8", []byte("{\"a\":\"\xff\xfe\"}")},
	{"duplicate member", []byte(`{"a":1,"a":2}`)},
	{"unknown member", []byte(`{"sec-unknown-member":1}`)},
	{"trailing data", []byte(`{} {}`)},
	{"deep nesting", []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000))},
	{"NUL", []byte("{\"a\":\"\x00\"}")},
}

// schemaMutations derives hostile bodies from a route's JSON schema: for
// each member, a wrong type, a huge number, invalid UTF-8 and an
// oversized string, each in an otherwise minimal body.
func schemaMutations(doc *openAPIDoc, schema map[string]any) []bodyMutation {
	s := doc.resolve(schema)
	if s["type"] == "array" {
		item := doc.resolve(asMap(s["items"]))
		var out []bodyMutation
		for _, m := range schemaMutations(doc, item) {
			out = append(out, bodyMutation{"item " + m.name, append(append([]byte("["), m.body...), ']')})
		}
		return out
	}
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	base, _ := fillSchema(doc, s, "", "", "secmal").(map[string]any)
	if base == nil {
		base = map[string]any{}
	}
	var out []bodyMutation
	for _, name := range names {
		p := doc.resolve(asMap(props[name]))
		var raws []struct{ what, raw string }
		switch p["type"] {
		case "string":
			raws = append(raws, struct{ what, raw string }{"a number", "123456789"},
				struct{ what, raw string }{"invalid UTF-8", "\"\xc3\x28\xff\""},
				struct{ what, raw string }{"1 MB", `"` + strings.Repeat("x", 1<<20) + `"`})
		case "integer", "number":
			raws = append(raws, struct{ what, raw string }{"a string", `"12"`},
				struct{ what, raw string }{"a huge number", "123456789012345678901234567890"},
				struct{ what, raw string }{"an overflowing float", "1e999"},
				struct{ what, raw string }{"a negative", "-9223372036854775809"})
		case "boolean":
			raws = append(raws, struct{ what, raw string }{"a string", `"true"`})
		case "array":
			raws = append(raws, struct{ what, raw string }{"an object", `{"a":1}`},
				struct{ what, raw string }{"null items", `[null,null]`})
		case "object":
			raws = append(raws, struct{ what, raw string }{"an array", `[1,2]`},
				struct{ what, raw string }{"a number", `7`})
		default:
			raws = append(raws, struct{ what, raw string }{"an object", `{"\u0000":[{}]}`})
		}
		for _, r := range raws {
			v := map[string]any{}
			for k, x := range base {
				v[k] = x
			}
			v[name] = rawMark
			out = append(out, bodyMutation{name + " as " + r.what, withRaw(v, r.raw)})
		}
	}
	return out
}

// queryMutations returns hostile query strings for a route's documented
// parameters.
func queryMutations(params []string) []string {
	var out []string
	for _, p := range params {
		for _, v := range []string{"abc", "99999999999999999999999", "-1", "0", "1e999", "\xff\xfe", strings.Repeat("x", 10000), "2026-13-45T99:99:99Z"} {
			out = append(out, url.QueryEscape(p)+"="+url.QueryEscape(v))
		}
		out = append(out, url.QueryEscape(p)+"=%ff", url.QueryEscape(p)+"=a&"+url.QueryEscape(p)+"=b")
	}
	return out
}

// TestMalformedInput feeds every admin route (from the served OpenAPI
// document, with real ids so handlers get past their lookups) and the
// runtime hostile bodies, query strings and headers: no answer is a 500,
// and the log has no panic.
func TestMalformedInput(t *testing.T) {
	s := startServer(t)
	sv := s.onboardAll(t)
	params := map[string]string{"serviceId": sv.publish.serviceID, "versionId": sv.publish.versionID,
		"profileId": sv.publish.profileID, "operationId": sv.publish.operationIDs["add"]}
	routes := adminRoutes(t, s)
	count := 0
	check := func(what string, r resp, err error) {
		t.Helper()
		count++
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		if r.Status == 500 || r.Status < 0 {
			t.Errorf("%s: %d %.300s", what, r.Status, r.Body)
		}
	}
	for _, rt := range routes {
		path := rt.Path
		if rt.JSONBody != nil || rt.Method == "GET" {
			// Real ids let the handler read the body past its lookups;
			// routes that act without a body get ids of nothing.
			path = wildcard.ReplaceAllStringFunc(path, func(m string) string {
				if v := params[m[1:len(m)-1]]; v != "" {
					return v
				}
				return m
			})
		}
		path = "/admin/v1" + fillPath(path)
		if rt.Method != "GET" {
			bodies := genericBodies
			if rt.JSONBody != nil {
				bodies = append(append([]bodyMutation(nil), bodies...), schemaMutations(rt.doc, rt.JSONBody)...)
			}
			for _, b := range bodies {
				r, err := s.trySend(request{method: rt.Method, path: path, email: adminEmail, body: bytes.NewReader(b.body), ctype: "application/json"})
				check(fmt.Sprintf("%s %s", rt, b.name), r, err)
			}
			continue
		}
		for _, q := range queryMutations(rt.queryParams()) {
			r, err := s.trySend(request{method: "GET", path: path + "?" + q, email: adminEmail})
			check(fmt.Sprintf("%s ?%.80s", rt, q), r, err)
		}
	}
	s.malformedRuntime(t, check)
	s.malformedHeaders(t, check)
	t.Logf("%d malformed requests", count)
	s.alive(t)
	if p := panicLines(s.logText()); p != "" {
		t.Errorf("panics in the log:\n%s", p)
	}
}

// malformedRuntime sends hostile publish bodies and runtime paths.
func (s *server) malformedRuntime(t *testing.T, check func(string, resp, error)) {
	bodies := append(append([]bodyMutation(nil), genericBodies...),
		bodyMutation{"a as a string", []byte(`{"a":"x","b":1}`)},
		bodyMutation{"a huge", []byte(`{"a":123456789012345678901234567890123456789e99999,"b":1}`)},
		bodyMutation{"a NaN", []byte(`{"a":NaN,"b":1}`)},
		bodyMutation{"b an object", []byte(`{"a":1,"b":{"c":[1,{"d":null}]}}`)},
		bodyMutation{"invalid UTF-8 member name", []byte("{\"\xff\":1}")},
	)
	for _, b := range bodies {
		for _, ctype := range []string{"application/json", "text/xml", "application/json; charset=latin1", ""} {
			r, err := s.trySend(request{method: "POST", path: "/publish/dev/secpub/add", body: bytes.NewReader(b.body), ctype: ctype})
			check(fmt.Sprintf("publish %s as %q", b.name, ctype), r, err)
		}
	}
	for _, p := range []string{"/publish/dev/secpub/%ff", "/publish/dev/secpub/add/extra/../../x", "/consume/dev/seccons?wsdl=%ff&wsdl",
		"/gateway/dev/secgw/wsdl/../../x", "/publish/" + strings.Repeat("a", 8000), "/%00/dev/x", "/publish/dev/secpub/add?%zz"} {
		for _, m := range []string{"GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"} {
			r, err := s.trySend(request{method: m, path: p})
			check(m+" "+p, r, err)
		}
	}
	for _, e := range entryPoints {
		if e.body == jsonBody && e.served(t, s) {
			for _, b := range genericBodies {
				r, err := s.trySend(request{method: e.method, path: e.probe, body: bytes.NewReader(b.body), ctype: "application/json"})
				check(e.name+" "+b.name, r, err)
			}
		}
	}
}

// malformedHeaders sends hostile headers to each surface.
func (s *server) malformedHeaders(t *testing.T, check func(string, resp, error)) {
	paths := []string{"/admin/v1/services", "/publish/dev/secpub/add", "/consume/dev/seccons", "/gateway/dev/secgw", "/health/ready", "/metrics"}
	headers := []map[string]string{
		{"X-Correlation-Id": strings.Repeat("c", 100000)},
		{"X-Correlation-Id": "\xff\xfe\x00"},
		{"X-Idp-Authenticated-User-Email": strings.Repeat("a", 50000) + "@example.com"},
		{"X-Idp-Authenticated-User-Email": "\xff@example.com", "X-Idp-Authenticated-User-Groups": strings.Repeat("g,", 20000)},
		{"Content-Type": "multipart/form-data; boundary=" + strings.Repeat("b", 5000)},
		{"Content-Type": "application/json; charset=\xff"},
		{"X-Forwarded-For": strings.Repeat("1.2.3.4, ", 5000)},
		{"X-Forwarded-For": "not-an-ip, [::1]:80, 999.1.1.1"},
		{"SOAPAction": strings.Repeat("\"", 10000)},
		{"X-Debug-Enabled": "\xff"},
		{"Authorization": "Bearer " + strings.Repeat("t", 100000)},
		{"X-Huge": strings.Repeat("h", 2<<20)}, // over MaxHeaderBytes: 431 before any handler
	}
	for _, p := range paths {
		for i, h := range headers {
			// Raw bytes: net/http's client refuses to send some of these.
			var b strings.Builder
			fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n", p)
			if _, ok := h["X-Idp-Authenticated-User-Email"]; !ok {
				b.WriteString("X-Idp-Authenticated-User-Email: " + adminEmail + "\r\n")
			}
			if _, ok := h["Content-Type"]; !ok {
				b.WriteString("Content-Type: application/json\r\n")
			}
			for k, v := range h {
				b.WriteString(k + ": " + v + "\r\n")
			}
			b.WriteString("\r\n{}")
			answers := rawExchange(t, s.base, b.String())
			what := fmt.Sprintf("POST %s with header set %d", p, i)
			if len(answers) != 1 {
				check(what, resp{Status: -1}, fmt.Errorf("%d answers", len(answers)))
				continue
			}
			check(what, resp{Status: answers[0].StatusCode}, nil)
		}
	}
}
