package security

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
)

// xmlSetup is the server and what the XML attacks need around it.
type xmlSetup struct {
	s      *server
	sv     *services
	env    attackEnv
	canary *canary
	docs   *docServer
	params map[string]string // path wildcard -> a real id
	async  *asyncService     // nil until the async area lands
	execs  []string          // fresh async executions, one per use
}

// nextExecution returns an execution no attack has touched yet.
func (x *xmlSetup) nextExecution(t *testing.T) string {
	if len(x.execs) == 0 {
		x.execs = x.s.executions(t, 10)
	}
	id := x.execs[0]
	x.execs = x.execs[1:]
	return id
}

func newXMLSetup(t *testing.T) *xmlSetup {
	x := &xmlSetup{s: startServer(t)}
	x.canary = newCanary(t, "tcp", "127.0.0.1:0")
	x.env = attackEnv{canaryURL: "http://127.0.0.1:" + x.canary.port, secretFile: filepath.Join(t.TempDir(), "secret.txt")}
	if err := os.WriteFile(x.env.secretFile, []byte(secretMarker), 0o600); err != nil {
		t.Fatal(err)
	}
	x.docs = newDocServer(t, x.env)
	// URL imports fetch from the document server on 127.0.0.1.
	x.s.admin(t, "PATCH", "/settings", map[string]any{"outbound_allowed_cidrs": []string{"127.0.0.1/32"}}).WantStatus(t, 200)
	x.sv = x.s.onboardAll(t)
	if hasRoutes(x.s, t, "/async-executions") {
		x.async = x.s.onboardAsync(t, "sec-xml-callback-secret")
		x.execs = x.s.executions(t, 40)
	}
	art := x.s.admin(t, "POST", "/wsdl/import-xml", map[string]any{"xml": calcWSDL(t)}).WantStatus(t, 201).JSON(t)
	x.params = map[string]string{
		"serviceId":   x.sv.publish.serviceID,
		"versionId":   x.sv.publish.versionID,
		"profileId":   x.sv.publish.profileID,
		"operationId": x.sv.publish.operationIDs["add"],
		"artifactId":  admintest.Dig(art, "artifactId"),
	}
	return x
}

// adminPath fills rt's wildcards with real ids where the setup has one;
// an async execution id is a fresh execution each time.
func (x *xmlSetup) adminPath(t *testing.T, rt adminRoute) string {
	return "/admin/v1" + wildcard.ReplaceAllStringFunc(rt.Path, func(m string) string {
		name := m[1 : len(m)-1]
		if name == "id" && strings.HasPrefix(rt.Path, "/async-executions/") && x.async != nil {
			return x.nextExecution(t)
		}
		if v := x.params[name]; v != "" {
			return v
		}
		return placeholder(name)
	})
}

// targets lists every XML entry point: the admin routes that read XML
// (from the served OpenAPI document) in each of their body forms, the
// URL imports and a remote reference, and the runtime's XML bodies.
func (x *xmlSetup) targets(t *testing.T, routes []adminRoute) []xmlTarget {
	s := x.s
	var out []xmlTarget
	n := 0
	key := func() string { n++; return fmt.Sprintf("secx%d", n) }
	for _, rt := range routes {
		if rt.Method != "POST" && rt.Method != "PUT" && rt.Method != "PATCH" {
			continue
		}
		rt := rt
		if rt.rawXML() {
			out = append(out, xmlTarget{name: rt.String() + " raw", kind: soap11Doc, limit: 10 << 20,
				send: func(t *testing.T, a xmlAttack, chunked bool) resp {
					path := x.adminPath(t, rt)
					p := a.build(soap11Doc, x.env)
					return s.post(t, path, "text/xml", adminEmail, p.r, bodyLen(p, chunked), nil)
				}})
		}
		path := x.adminPath(t, rt)
		if rt.FormBody != nil {
			for _, zipped := range []bool{false, true} {
				name, file := rt.String()+" multipart", "service.wsdl"
				if zipped {
					name, file = rt.String()+" zip", "service.zip"
				}
				out = append(out, xmlTarget{name: name, kind: wsdlDoc, limit: 64 << 20,
					send: func(t *testing.T, a xmlAttack, chunked bool) resp {
						p := a.build(wsdlDoc, x.env)
						if zipped {
							p = zipOf(t, a, x.env)
						}
						body, n, ctype := multipartBody(formFields(rt.FormBody, key()), file, p)
						if chunked {
							n = -1
						}
						return s.post(t, path, ctype, adminEmail, body, n, nil)
					}})
			}
		}
		if rt.doc.hasProperty(rt.JSONBody, "xml") {
			out = append(out, xmlTarget{name: rt.String() + " json", kind: wsdlDoc, limit: 64 << 20,
				send: func(t *testing.T, a xmlAttack, chunked bool) resp {
					p := a.build(wsdlDoc, x.env)
					body, n := jsonBodyWith(rt.JSONBody, rt.doc, "xml", key(), p)
					if chunked {
						n = -1
					}
					return s.post(t, path, "application/json", adminEmail, body, n, nil)
				}})
		}
		if rt.takesURL() {
			for _, form := range []string{"wsdl", "ref"} {
				name := rt.String() + " url"
				if form == "ref" {
					name = rt.String() + " remote reference"
				}
				out = append(out, xmlTarget{name: name, kind: wsdlDoc, limit: 20 << 20,
					send: func(t *testing.T, a xmlAttack, chunked bool) resp {
						body, n := jsonBodyWith(rt.JSONBody, rt.doc, "url", key(), fixed(x.docs.URL+"/"+form+"/"+slug(a.name)))
						return s.post(t, path, "application/json", adminEmail, body, n, nil)
					}})
			}
		}
	}
	for _, v := range []struct {
		name  string
		kind  docKind
		ctype string
	}{{"consume soap 1.1", soap11Doc, "text/xml; charset=utf-8"}, {"consume soap 1.2", soap12Doc, "application/soap+xml; charset=utf-8"}} {
		out = append(out, xmlTarget{name: v.name, kind: v.kind, limit: 10 << 20,
			send: func(t *testing.T, a xmlAttack, chunked bool) resp {
				p := a.build(v.kind, x.env)
				return s.post(t, "/consume/dev/seccons", v.ctype, "", p.r, bodyLen(p, chunked), map[string]string{"SOAPAction": `"Add"`})
			}})
	}
	if x.async != nil {
		// Async callbacks (authenticated, so the envelope is parsed).
		out = append(out, xmlTarget{name: "async callback", kind: soap11Doc, limit: 10 << 20,
			send: func(t *testing.T, a xmlAttack, chunked bool) resp {
				p := a.build(soap11Doc, x.env)
				return s.post(t, "/_s2r/callback/dev/secasync/add", "text/xml", "", p.r, bodyLen(p, chunked),
					map[string]string{"X-S2R-Callback-Secret": x.async.secret})
			}})
	}
	// Publish parses the backend's answer: the backend is the attacker.
	out = append(out, xmlTarget{name: "publish backend response", kind: soap11Doc, limit: 10 << 20,
		send: func(t *testing.T, a xmlAttack, chunked bool) resp {
			p := a.build(soap11Doc, x.env)
			body, err := io.ReadAll(p.r)
			if err != nil {
				t.Fatal(err)
			}
			x.sv.backend.setReply(200, "text/xml; charset=utf-8", string(body))
			defer x.sv.backend.setReply(200, "text/xml; charset=utf-8", soap11(`<AddResponse xmlns="`+calcNS+`"><result>5</result></AddResponse>`))
			return s.post(t, "/publish/dev/secpub/add", "application/json", "", strings.NewReader(`{"a":1,"b":2}`), -1, nil)
		}})
	out = append(out, x.ingestTargets(t)...)
	out = append(out, xmlTarget{name: "gateway", kind: soap11Doc, limit: 10 << 20, passthrough: true,
		send: func(t *testing.T, a xmlAttack, chunked bool) resp {
			p := a.build(soap11Doc, x.env)
			return s.post(t, "/gateway/dev/secgw", "text/xml", "", p.r, bodyLen(p, chunked), nil)
		}})
	return out
}

// only restricts the attack cases to those whose name contains it (for
// debugging one case: go test -run XMLAttacks -only 'gateway / 200').
var only = flag.String("only", "", "run only the cases whose name contains this")

// TestXMLAttacks sends every hostile document to every XML entry point.
func TestXMLAttacks(t *testing.T) {
	x := newXMLSetup(t)
	routes := adminRoutes(t, x.s)
	targets := x.targets(t, routes)
	t.Logf("%d XML entry points x %d attacks", len(targets), len(xmlAttacks))
	for _, tg := range targets {
		for _, a := range xmlAttacks {
			chunkings := []bool{false}
			if a.name == "200 MB body" {
				chunkings = []bool{false, true}
			}
			for _, chunked := range chunkings {
				name := tg.name + " / " + a.name
				if chunked {
					name += " chunked"
				}
				if !strings.Contains(name, *only) {
					continue
				}
				var r resp
				start := time.Now()
				c := x.s.measureTwice(t, func() { r = tg.send(t, a, chunked) })
				t.Logf("%-70s %d %s %s (%v)", name, r.Status, errorCode(r), c, time.Since(start).Round(time.Millisecond))
				x.check(t, name, tg, a, r, c)
			}
		}
	}
}

// check applies the rules every attack must meet: within the CPU and
// memory budgets, the server still serving, nothing fetched, no local
// file in the answer, and the right refusal for the entry point.
func (x *xmlSetup) check(t *testing.T, name string, tg xmlTarget, a xmlAttack, r resp, c cost) {
	t.Helper()
	c.within(t, name)
	x.s.alive(t)
	if n := x.canary.hits.Swap(0); n > 0 {
		t.Errorf("%s: the server connected to the canary (%d connections)", name, n)
	}
	if strings.Contains(string(r.Body), secretMarker) || strings.Contains(string(r.Body), "root:x:0:0") {
		t.Errorf("%s: a local file's content is in the answer: %.300s", name, r.Body)
	}
	status, code := verdict(r)
	got := fmt.Sprintf("%d %s", status, code)
	switch {
	case a.harmless:
		// Not malformed: any answer but a server failure. Consume's SOAP
		// 1.1 Faults are 500 with the Client fault code; publish's 502 is
		// the backend's failure.
		soap11Client := strings.HasPrefix(tg.name, "consume soap 1.1") && strings.Contains(string(r.Body), "Client")
		if status < 0 || (status >= 500 && !soap11Client && status != 502) {
			t.Errorf("%s: %s: %.300s", name, got, r.Body)
		}
	case tg.passthrough:
		x.checkPassthrough(t, name, a, got)
	case tg.opaque:
		if (a.size && status != 413) || status >= 500 || status < 0 {
			t.Errorf("%s: %s, want it stored as data or refused (413 when over the limit): %.300s", name, got, r.Body)
		}
	case tg.name == "publish backend response":
		// The backend's hostile answer is the backend's failure: 502
		// S2R-RUN-0504 (unparsable) or 413 over the response limit.
		if got != "502 S2R-RUN-0504" && !(a.size && got == "413 S2R-RUN-0413") {
			t.Errorf("%s: %s, want 502 S2R-RUN-0504: %.300s", name, got, r.Body)
		}
	case strings.HasPrefix(tg.name, "consume soap 1.1"):
		// SOAP 1.1 sends every Fault with 500 (section 6.2); the code and
		// the Client fault code say it is the caller's mistake.
		if status != 500 || !strings.Contains(string(r.Body), "Client") || !wantCode(a, code) {
			t.Errorf("%s: %s, want a Client Fault with S2R-VAL-0400 (or 0413): %.300s", name, got, r.Body)
		}
	case !wantStatus(a, status) || !wantCode(a, code):
		t.Errorf("%s: %s, want 400 S2R-VAL-0400%s: %.300s", name, got, map[bool]string{true: " or 413 S2R-*-0413"}[a.size], r.Body)
	}
}

func wantStatus(a xmlAttack, status int) bool {
	return status == 400 || (a.size && status == 413)
}

func wantCode(a xmlAttack, code string) bool {
	return code == "S2R-VAL-0400" || (a.size && strings.HasSuffix(code, "-0413"))
}

// checkPassthrough checks the gateway, which forwards bytes without
// parsing them by design (SPEC 4.3): a document within max_payload_mb is
// relayed as it came, one over it is refused with 413 and the backend
// never receives a complete body over the limit.
func (x *xmlSetup) checkPassthrough(t *testing.T, name string, a xmlAttack, got string) {
	t.Helper()
	reqs := x.sv.backend.requests()
	if a.size {
		if got != "413 S2R-RUN-0413" {
			t.Errorf("%s: %s, want 413 S2R-RUN-0413", name, got)
		}
		if n := len(reqs); n > 0 && reqs[n-1].Complete && reqs[n-1].Length > 10<<20 {
			t.Errorf("%s: the backend received a complete body of %d bytes, over the limit", name, reqs[n-1].Length)
		}
		return
	}
	if got != "200 " {
		t.Errorf("%s: %s, want the document relayed (200)", name, got)
	}
}

// verdict is the status and S2R code of an answer; a batch answer (200
// with items) is judged by its single item.
func verdict(r resp) (int, string) {
	var batch struct {
		Items []struct {
			Status int `json:"status"`
			Error  struct {
				Code string `json:"code"`
			} `json:"error"`
		} `json:"items"`
		Summary *struct{} `json:"summary"`
	}
	if r.Status == 200 && json.Unmarshal(r.Body, &batch) == nil && batch.Summary != nil && len(batch.Items) == 1 {
		return batch.Items[0].Status, batch.Items[0].Error.Code
	}
	return r.Status, errorCode(r)
}
