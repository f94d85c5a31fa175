package soap

import (
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

func TestNotUnderstood(t *testing.T) {
	env := `<e:Envelope xmlns:e="` + NS12 + `" xmlns:a="urn:a"><e:Header>` +
		`<a:Sec e:mustUnderstand="true"/>` +
		`<a:Known e:mustUnderstand="1"/>` +
		`<a:Other e:mustUnderstand="true" e:role="urn:someone-else"/>` +
		`<a:None e:mustUnderstand="true" e:role="` + RoleNone12 + `"/>` +
		`<a:Optional/>` +
		`</e:Header><e:Body/></e:Envelope>`
	m, err := Parse([]byte(env), xmlstream.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got := m.NotUnderstood(func(n xmlstream.Name) bool { return n.Local == "Known" })
	if len(got) != 1 || got[0].Name.Local != "Sec" {
		t.Fatalf("NotUnderstood = %+v", got)
	}
	f := MustUnderstandFault(got)
	w := xmlstream.NewWriter(nil)
	if err := WriteFaultEnvelope(w, V11, f); err != nil {
		t.Fatal(err)
	}
	const want = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault><faultcode>soapenv:MustUnderstand</faultcode><faultstring>header block {urn:a}Sec not understood</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>`
	if string(w.Bytes()) != want {
		t.Errorf("fault = %s\nwant   %s", w.Bytes(), want)
	}
}

// TestWSSecurityIsUnderstood: a mustUnderstand Security header of WSS 1.0
// or 1.1 (WCF sends it so) passes IsWSSecurity; other blocks do not.
func TestWSSecurityIsUnderstood(t *testing.T) {
	for _, ns := range []string{NSWSSecurity10, NSWSSecurity11} {
		env := `<s:Envelope xmlns:s="` + NS11 + `"><s:Header><o:Security s:mustUnderstand="1" xmlns:o="` + ns + `"/>` +
			`<x:Other s:mustUnderstand="1" xmlns:x="urn:x"/></s:Header><s:Body/></s:Envelope>`
		m, err := Parse([]byte(env), xmlstream.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		got := m.NotUnderstood(IsWSSecurity)
		if len(got) != 1 || got[0].Name.Local != "Other" {
			t.Errorf("%s: NotUnderstood = %+v, want only Other", ns, got)
		}
	}
}
