package dataplane

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// calcWith parses testdata/calc.wsdl with each replacement applied.
func calcWith(t *testing.T, pairs ...string) *wsdl.Definitions {
	t.Helper()
	b, err := os.ReadFile("testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.NewReplacer(pairs...).Replace(string(b))
	defs, err := wsdl.ParseFiles(context.Background(), "calc.wsdl", map[string][]byte{"calc.wsdl": []byte(doc)})
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

const (
	bindingOpen = `<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>`
	addInput    = `<operation name="Add"><input message="tns:AddIn"/>`
)

// TestPublishWSAddressingOnTheWire: synchronous publish sends wsa:Action,
// wsa:To, a urn:uuid wsa:MessageID and an anonymous wsa:ReplyTo when the
// WSDL declares WS-Addressing (binding element, referenced policy, an
// input action) or the profile asks for it, and nothing otherwise.
func TestPublishWSAddressingOnTheWire(t *testing.T) {
	tests := []struct {
		name    string
		defs    func(t *testing.T) *wsdl.Definitions
		profile bool
		action  string // "" expects no WS-Addressing at all
	}{
		{"none", func(t *testing.T) *wsdl.Definitions { return calcWith(t) }, false, ""},
		{"profile", func(t *testing.T) *wsdl.Definitions { return calcWith(t) }, true, "http://example.com/calc/Add"},
		{"wsaw:UsingAddressing", func(t *testing.T) *wsdl.Definitions {
			return calcWith(t, bindingOpen, bindingOpen+`<wsaw:UsingAddressing xmlns:wsaw="http://www.w3.org/2006/05/addressing/wsdl"/>`)
		}, false, "http://example.com/calc/Add"},
		{"wsam:Addressing policy", func(t *testing.T) *wsdl.Definitions {
			return calcWith(t, bindingOpen, bindingOpen+`<wsp:PolicyReference xmlns:wsp="http://www.w3.org/ns/ws-policy" URI="#AddrPolicy"/>`,
				`<portType name="CalcPort">`, `<wsp:Policy xmlns:wsp="http://www.w3.org/ns/ws-policy" `+
					`xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" wsu:Id="AddrPolicy">`+
					`<wsam:Addressing xmlns:wsam="http://www.w3.org/2007/05/addressing/metadata"><wsp:Policy/></wsam:Addressing>`+
					`</wsp:Policy><portType name="CalcPort">`)
		}, false, "http://example.com/calc/Add"},
		{"wsam:Action", func(t *testing.T) *wsdl.Definitions {
			return calcWith(t, addInput, `<operation name="Add"><input message="tns:AddIn" `+
				`xmlns:wsam="http://www.w3.org/2007/05/addressing/metadata" wsam:Action="urn:calc:AddRequest"/>`)
		}, false, "urn:calc:AddRequest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defs := tt.defs(t)
			var mu sync.Mutex
			var got []soap.Addressing
			e := newPublishEnv(t, func(src *routing.Source) {
				src.Contract = defs
				src.Backends[0].Profile.WSAddressing = tt.profile
			})
			e.backend.set(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				m, err := soap.Parse(b, xmlstream.Limits{})
				if err != nil {
					t.Errorf("backend: %v", err)
				}
				mu.Lock()
				got = append(got, m.Addressing)
				mu.Unlock()
				answer(200, "text/xml", envelope11(`<AddResponse xmlns="http://example.com/calc"><result>3</result></AddResponse>`))(w, r)
			})
			for range 2 {
				if res := e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, "wsa-"+tt.name); res.status != 200 {
					t.Fatalf("publish: %d %s", res.status, res.body)
				}
			}
			a := got[0]
			if tt.action == "" {
				if a != (soap.Addressing{}) {
					t.Errorf("unexpected WS-Addressing %+v", a)
				}
				return
			}
			want := soap.Addressing{Action: tt.action, To: e.backend.srv.URL + "/calc", ReplyTo: "http://www.w3.org/2005/08/addressing/anonymous",
				MessageID: a.MessageID}
			if a != want || !strings.HasPrefix(a.MessageID, "urn:uuid:") || len(a.MessageID) != len("urn:uuid:")+36 {
				t.Errorf("addressing = %+v, want %+v", a, want)
			}
			if got[1].MessageID == a.MessageID {
				t.Error("two calls share a MessageID")
			}
		})
	}
}

// TestPublishWSAddressingFollowsFailover: when active_passive fails over
// from the default backend, the envelope the next backend gets names that
// backend in wsa:To.
func TestPublishWSAddressingFollowsFailover(t *testing.T) {
	var got soap.Addressing
	second := newSOAPBackend(t)
	second.set(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if m, err := soap.Parse(b, xmlstream.Limits{}); err == nil {
			got = m.Addressing
		}
		answer(200, "text/xml", envelope11(`<AddResponse xmlns="http://example.com/calc"><result>3</result></AddResponse>`))(w, r)
	})
	e := newPublishEnv(t, func(src *routing.Source) {
		src.Service.BackendRoutingMode = "active_passive"
		src.Backends[0].Profile.WSAddressing = true
		b2 := src.Backends[0]
		b2.Profile.ProfileID, b2.Profile.Name, b2.Profile.RoutingPriority = "b2", "backup", 10
		b2.Profile.EndpointURL = second.srv.URL + "/calc?x=1&y=2"
		src.Backends = append(src.Backends, b2)
	})
	e.backend.set(answer(http.StatusServiceUnavailable, "text/plain", "down"))
	if res := e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, "wsa-failover"); res.status != 200 {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	if got.To != second.srv.URL+"/calc?x=1&y=2" || got.Action != "http://example.com/calc/Add" {
		t.Errorf("the backup got %+v", got)
	}
}
