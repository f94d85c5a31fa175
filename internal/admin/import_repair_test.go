package admin

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// remoteCalcWSDL imports its types from base (an http URL) and a local
// file, and names a missing file and a well-known schema.
func remoteCalcWSDL(base string, withMissing bool) string {
	missing := ""
	if withMissing {
		missing = `<xs:import namespace="urn:missing" schemaLocation="types/missing.xsd"/>`
	}
	return `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:r="urn:r" xmlns:tns="urn:calc" targetNamespace="urn:calc">
  <wsdl:types>
    <xs:schema targetNamespace="urn:calc">
      <xs:import namespace="urn:r" schemaLocation="` + base + `/schemas/remote.xsd"/>
      <xs:import namespace="urn:local" schemaLocation="types/local.xsd"/>
      <xs:import namespace="http://schemas.xmlsoap.org/soap/encoding/" schemaLocation="http://schemas.xmlsoap.org/soap/encoding/"/>
      ` + missing + `
    </xs:schema>
  </wsdl:types>
  <wsdl:message name="AddIn"><wsdl:part name="p" element="r:Add"/></wsdl:message>
  <wsdl:message name="AddOut"><wsdl:part name="p" element="r:AddResponse"/></wsdl:message>
  <wsdl:portType name="PT"><wsdl:operation name="Add"><wsdl:input message="tns:AddIn"/><wsdl:output message="tns:AddOut"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="B" type="tns:PT"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Add"><soap:operation soapAction="urn:add"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Calc"><wsdl:port name="P" binding="tns:B"><soap:address location="http://10.0.0.5/calc"/></wsdl:port></wsdl:service>
</wsdl:definitions>`
}

const localXSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:local"><xs:element name="L" type="xs:string"/></xs:schema>`

// remoteSchemaServer serves remote.xsd, which includes common.xsd by a
// relative location.
func remoteSchemaServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/schemas/remote.xsd", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:r" elementFormDefault="qualified">
  <xs:include schemaLocation="common.xsd"/>
  <xs:element name="Add"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`))
	})
	mux.HandleFunc("/schemas/common.xsd", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:r" elementFormDefault="qualified">
  <xs:element name="AddResponse"><xs:complexType><xs:sequence><xs:element name="result" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestNamespaceRepairAndReport(t *testing.T) {
	broken := string(wsdlcorpus.Read(t, "vpulim+node-soap/test/wsdl/wsdl_with_attributes.wsdl"))
	api := newTestAPI(t, storetest.SQLite(t))
	r := api.Do("POST", "/admin/v1/wsdl/namespace-repair-preview", operatorEmail, xmlBody(t, broken, nil, nil))
	r.WantStatus(t, http.StatusOK)
	var p namespaceRepairPreview
	r.Decode(t, &p)
	if len(p.Repairs) == 0 || p.Repairs[0].Prefix != "s" || p.Repairs[0].File != rootXMLName || p.Repairs[0].Line == 0 ||
		!strings.HasPrefix(p.Repairs[0].Declaration, `xmlns:s="`) {
		t.Fatalf("repairs %+v", p.Repairs)
	}

	r = api.Do("POST", "/admin/v1/wsdl/repair-report", operatorEmail, xmlBody(t, broken, nil, nil))
	r.WantStatus(t, http.StatusOK)
	var rep repairReport
	r.Decode(t, &rep)
	// The import reads the undeclared prefix as the repair proposes
	// (docs/wsdl-support.md "Undeclared prefixes"): importable as it is,
	// with the warning, and the repair package is still offered.
	if rep.ImportError != nil || rep.Status != repairImportable || rep.OperationCount == 0 {
		t.Errorf("report status %s operations %d import error %+v", rep.Status, rep.OperationCount, rep.ImportError)
	}
	if !slices.ContainsFunc(rep.Warnings, func(w string) bool {
		return strings.HasPrefix(w, rootXMLName+`:13: undeclared namespace prefix "s": read as "http://www.w3.org/2001/XMLSchema"`)
	}) {
		t.Errorf("warnings %q", rep.Warnings)
	}
	if len(rep.SuggestedActions) == 0 || !strings.Contains(rep.SuggestedActions[0], "repair-package") {
		t.Errorf("suggested actions %q", rep.SuggestedActions)
	}
}

func TestExternalReferencesAndRepairPackage(t *testing.T) {
	remote := remoteSchemaServer(t)
	api := newTestAPI(t, storetest.SQLite(t))
	files := map[string]string{"types/local.xsd": localXSD}

	r := api.Do("POST", "/admin/v1/wsdl/external-reference-preview", operatorEmail, xmlBody(t, remoteCalcWSDL(remote.URL, true), files, nil))
	r.WantStatus(t, http.StatusOK)
	var rep referenceReport
	r.Decode(t, &rep)
	want := map[string]int{"total": 4, refResolved: 1, refBuiltin: 1, refRemoteUnchecked: 1, refMissing: 1}
	for k, n := range want {
		if rep.Summary[k] != n {
			t.Errorf("summary[%s] = %d, want %d; %s", k, rep.Summary[k], n, r.Body)
		}
	}

	// checkRemote without the allow list: the loopback fetch is refused.
	r = api.Do("POST", "/admin/v1/wsdl/external-reference-preview", operatorEmail,
		xmlBody(t, remoteCalcWSDL(remote.URL, false), files, map[string]any{"checkRemote": true}))
	r.WantStatus(t, http.StatusOK)
	rep = referenceReport{}
	r.Decode(t, &rep)
	if rep.Summary[refRemoteFailed] != 1 {
		t.Errorf("blocked remote: summary %v", rep.Summary)
	}

	api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`).WantStatus(t, http.StatusOK)
	r = api.Do("POST", "/admin/v1/wsdl/external-reference-preview", operatorEmail,
		xmlBody(t, remoteCalcWSDL(remote.URL, false), files, map[string]any{"checkRemote": true}))
	r.WantStatus(t, http.StatusOK)
	rep = referenceReport{}
	r.Decode(t, &rep)
	if rep.Summary[refRemoteReachable] != 2 || rep.Summary["total"] != 4 { // remote.xsd and its include common.xsd
		t.Errorf("reachable remote: summary %v; %s", rep.Summary, r.Body)
	}

	r = api.Do("POST", "/admin/v1/wsdl/repair-package", operatorEmail,
		xmlBody(t, remoteCalcWSDL(remote.URL, false), files, map[string]any{"checkRemote": true}))
	r.WantStatus(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "application/zip" {
		t.Fatalf("Content-Type %q", ct)
	}
	if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="root-repaired.zip"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	pkg := unzipForTest(t, r.Body)
	host := safeFileName(strings.TrimPrefix(remote.URL, "http://"))
	for _, name := range []string{rootXMLName, "types/local.xsd", "external/" + host + "/schemas/remote.xsd",
		"external/" + host + "/schemas/common.xsd", repairManifestName} {
		if _, ok := pkg[name]; !ok {
			t.Errorf("package lacks %s (has %v)", name, keysOf(pkg))
		}
	}
	if !strings.Contains(string(pkg[rootXMLName]), `schemaLocation="external/`+host+`/schemas/remote.xsd"`) {
		t.Errorf("root not rewritten:\n%s", pkg[rootXMLName])
	}
	var m repairManifest
	if err := json.Unmarshal(pkg[repairManifestName], &m); err != nil || len(m.Rewrites) == 0 {
		t.Errorf("manifest %s: %v", pkg[repairManifestName], err)
	}

	// The package imports with the remote server gone.
	remote.Close()
	r = api.upload("/admin/v1/wsdl/import", formPart{"file", "repaired.zip", r.Body}, formPart{name: "rootPath", data: []byte(rootXMLName)})
	r.WantStatus(t, http.StatusCreated)
}

func keysOf(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
