package admin

import (
	"context"
	"testing"

	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestFaultDetailJSON: a test call's fault preview shows the detail as
// the runtime's full exposure mode does (docs/conversion.md section 13):
// keyed by the detail element's name, typed by the declared fault that
// element names, naively when the contract does not fit.
func TestFaultDetailJSON(t *testing.T) {
	const file = "apache+cxf/testutils/src/main/resources/wsdl/hello_world.wsdl"
	defs, err := wsdl.ParseFiles(context.Background(), "hello_world.wsdl", map[string][]byte{"hello_world.wsdl": wsdlcorpus.Read(t, file)})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := defs.Operation("SOAPService", "SoapPort", "testDocLitFault")
	if !ok {
		t.Fatal("no testDocLitFault")
	}
	const code = `<x1:NoSuchCodeLit xmlns:x1="http://apache.org/hello_world_soap_http/types"><x1:code><x1:minor>1</x1:minor><x1:major>2</x1:major></x1:code></x1:NoSuchCodeLit>`
	for _, tt := range []struct{ name, detail, want string }{
		{"declared structure", code, `{"NoSuchCodeLit":{"code":{"minor":1,"major":2}}}`},
		{"declared simple", `<x1:BadRecordLit xmlns:x1="http://apache.org/hello_world_soap_http/types">no</x1:BadRecordLit>`, `{"BadRecordLit":"no"}`},
		{"extra child", code + `<trace>x</trace>`, `{"NoSuchCodeLit":{"code":{"minor":"1","major":"2"}},"trace":"x"}`},
		{"undeclared", `<e>x</e>`, `{"e":"x"}`},
		{"empty", ``, ``},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(faultDetailJSON(c, []byte(tt.detail))); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
