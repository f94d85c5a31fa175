package backends

import (
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/wsdl/wsdltest"
)

// TestFaultDetailJSON: a test call's fault preview shows the detail as
// the runtime's full exposure mode does (docs/conversion.md section 13):
// keyed by the detail element's name, typed by the declared fault that
// element names, naively when the contract does not fit.
func TestFaultDetailJSON(t *testing.T) {
	const file = "apache+cxf/testutils/src/main/resources/wsdl/hello_world.wsdl"
	c := wsdltest.CorpusOperation(t, file, "SOAPService", "SoapPort", "testDocLitFault")
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

// TestConvertAnswerOneWay: a one-way operation the backend accepted with
// no envelope (202, the usual answer) succeeds with {}, as in the runtime;
// a non-2xx answer without a body still fails.
func TestConvertAnswerOneWay(t *testing.T) {
	const file = "apache+cxf/testutils/src/main/resources/wsdl/hello_world.wsdl"
	c := wsdltest.CorpusOperation(t, file, "SOAPService", "SoapPort", "greetMeOneWay")
	if c.Output != nil {
		t.Fatal("no one-way greetMeOneWay")
	}
	for _, tt := range []struct {
		status int
		body   string
		want   string
		code   string
	}{
		{202, "", model.PreviewStatusSucceeded, ""},
		{200, "\n", model.PreviewStatusSucceeded, ""},
		{500, "", model.PreviewStatusFailed, apierr.RunBackendFault},
	} {
		res := convertAnswer(c, &upstream.Response{StatusCode: tt.status, Body: []byte(tt.body)})
		code := ""
		if res.Error != nil {
			code = res.Error.Code
		}
		if res.Status != tt.want || code != tt.code || (tt.code == "" && string(res.JSON) != "{}") {
			t.Errorf("HTTP %d %q: %s %s %s, want %s %s", tt.status, tt.body, res.Status, code, res.JSON, tt.want, tt.code)
		}
	}
}
