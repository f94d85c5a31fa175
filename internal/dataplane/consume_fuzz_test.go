package dataplane

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// fuzzConsume serves one SOAP 1.2 request in process and checks that bad
// input never becomes an internal error (S2R-RUN-0500), that a Fault's
// status follows the SOAP 1.2 HTTP binding (400 for env:Sender, 500
// otherwise), that the answer is a SOAP 1.2 message and that it is
// recorded once.
func fuzzConsume(t *testing.T, env *consumeEnv, h http.Handler, body string) {
	req := httptest.NewRequest("POST", "/consume/dev/orders", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/soap+xml; charset=utf-8")
	req.Header.Set("X-Correlation-Id", "fuzz")
	w := httptest.NewRecorder()
	before := len(env.log.byCID("fuzz"))
	h.ServeHTTP(w, req)
	answer := w.Body.String()
	if strings.Contains(answer, "<s2r:code>S2R-RUN-0500</s2r:code>") {
		t.Fatalf("internal error for %q: %s", body, answer)
	}
	if sender := strings.Contains(answer, "<env:Value>env:Sender</env:Value>"); w.Code != 200 && w.Code != 202 &&
		(sender && w.Code != 400 || !sender && w.Code != 500) {
		t.Fatalf("status %d for the Fault %s", w.Code, answer)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/soap+xml; charset=utf-8" {
		t.Fatalf("Content-Type %q for %q", ct, body)
	}
	if _, err := xmlstream.Parse(w.Body.Bytes(), xmlstream.Limits{}); err != nil {
		t.Fatalf("answer is not XML (%v): %s", err, w.Body)
	}
	if got := len(env.log.byCID("fuzz")); got != before+1 {
		t.Fatalf("%d records for one request", got-before)
	}
}

func FuzzConsumeRequest(f *testing.F) {
	for _, s := range []string{soap12(getOrder), soap12(createOrder), soap12(""), `<e:Envelope xmlns:e="urn:x"/>`,
		soap12(`<o:GetOrder xmlns:o="urn:example:orders"><o:id>1e3</o:id></o:GetOrder>`),
		soap12(`<o:GetOrder xmlns:o="urn:example:orders"><o:id>1</o:id><o:id>2</o:id></o:GetOrder>`), "\x00", ""} {
		f.Add(s)
	}
	env := newConsumeEnv(f, Config{}, nil)
	env.rest.set(jsonAnswer(200, order1))
	h := httpx.Correlation(env.srv.Config.Handler)
	f.Fuzz(func(t *testing.T, body string) {
		fuzzConsume(t, env, h, body)
	})
}

func FuzzConsumeResponse(f *testing.F) {
	for _, s := range []string{order1, `{}`, `{"order":null}`, `<html>`, ``, `{"order":{"id":1e400}}`, `[1]`,
		"{\"order\":{\"name\":\"\x01\"}}"} {
		f.Add(s)
	}
	env := newConsumeEnv(f, Config{}, nil)
	h := httpx.Correlation(env.srv.Config.Handler)
	f.Fuzz(func(t *testing.T, answerBody string) {
		env.rest.set(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, answerBody)
		})
		fuzzConsume(t, env, h, soap12(getOrder))
	})
}

// FuzzWSDLRewrite checks that rewriting never panics, changes nothing but
// the reference values, and keeps a well-formed document well-formed.
func FuzzWSDLRewrite(f *testing.F) {
	files := ordersFiles(f)
	f.Add(string(files["orders.wsdl"]))
	f.Add(string(files["xsd/orders-types.xsd"]))
	f.Add(`<a:address xmlns:a="http://schemas.xmlsoap.org/wsdl/soap/" location = 'x&amp;y' b="1"/>`)
	f.Add(`<?xml version="1.0" encoding="ISO-8859-1"?><s:schema xmlns:s="http://www.w3.org/2001/XMLSchema"><s:include schemaLocation="t\xe9.xsd"/></s:schema>`)
	f.Add("<?xml version='1.0' encoding='latin1'?><d xmlns:s=\"http://www.w3.org/2001/XMLSchema\" xmlns:p=\"http://schemas.xmlsoap.org/wsdl/soap/\">" +
		"caf\xe9 \xe0 la cr\xe8me<s:import schemaLocation=\"xsd/orders-types.xsd\"/>\xff<p:address location=\"http://b/\"/></d>")
	f.Fuzz(func(t *testing.T, doc string) {
		stored := map[string][]byte{"root.wsdl": []byte(doc), "xsd/orders-types.xsd": files["xsd/orders-types.xsd"],
			"t\xe9.xsd": []byte("<x/>")}
		set := indexWSDLFiles("root.wsdl", stored)
		file := set.byKey["root.wsdl"]
		out := file.render(`http://h:1/consume/e/s"<&'`, func(key string) string { return "http://h:1/f/" + set.byKey[key].name })
		// Serving declares the prefixes a document uses without declaring
		// them (wsdl.DeclareUndeclared) and changes nothing else but the
		// references.
		if declared := wsdl.DeclareUndeclared(stored)["root.wsdl"]; len(file.refs) == 0 && !bytes.Equal(out, declared) {
			t.Fatalf("a document without references changed:\n%q\n%q", declared, out)
		}
		// A document that is well-formed but for undeclared prefixes is
		// served namespace-well-formed.
		if _, _, err := xmlstream.ParseAllowUndeclared([]byte(doc), xmlstream.Limits{}); err == nil {
			if _, err := xmlstream.Parse(out, xmlstream.Limits{}); err != nil {
				t.Fatalf("serving did not give a well-formed document: %v\n%q\n%q", err, doc, out)
			}
		}
	})
}
