package catalog

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/transform"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
	"github.com/s2r-project/s2r/internal/xsd"
)

func TestOperationKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"GetCountryName", "get-country-name"},
		{"CountryISOCode", "country-iso-code"},
		{"ListOfContinentsByName", "list-of-continents-by-name"},
		{"get_user2FA", "get-user2-fa"},
		{"add", "add"},
		{"HTTPRequest", "http-request"},
		{"Über", "ber"},
		{"__", "operation"},
		{"A.B-C", "a-b-c"},
		{strings.Repeat("Ab", 40), strings.TrimRight(strings.Repeat("ab-", 21), "-")},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := OperationKey(tc.in); got != tc.want {
				t.Errorf("OperationKey(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	if diff := cmp.Diff([]string{"add", "add-2", "add-3", "b"}, UniqueKeys([]string{"add", "add", "add", "b"})); diff != "" {
		t.Error(diff)
	}
}

// countryDefs parses countryInformation.wsdl from the corpus.
func countryDefs(t *testing.T) *wsdl.Definitions {
	t.Helper()
	b := wsdlcorpus.Read(t, "postmanlabs+wsdl-to-postman/test/data/validWSDLs11/countryInformation.wsdl")
	defs, err := wsdl.ParseFiles(context.Background(), "countryInformation.wsdl", map[string][]byte{"countryInformation.wsdl": b})
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

func TestDraftOperationsCorpus(t *testing.T) {
	defs := countryDefs(t)
	ops, err := DraftOperations(defs, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 21 {
		t.Fatalf("%d operations, want 21", len(ops))
	}
	got := ops[8]
	want := model.Operation{OperationKey: "country-name", SOAPOperationName: "CountryName",
		SOAPNamespace: "http://www.oorsprong.org/websamples.countryinfo", SOAPVersion: "1.1", SOAPAction: "",
		Style: "document", Use: "literal", RestMethod: "POST", RestPath: "/country-name", ExecutionMode: "sync",
		ValidationRules: []model.ValidationRule{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CountryName (-want +got):\n%s", diff)
	}
	svc, port, err := SelectPort(defs, "", "")
	if err != nil || svc != "CountryInfoService" || port.Name != "CountryInfoServiceSoap" {
		t.Errorf("SelectPort = %q, %v, %v", svc, port, err)
	}
	if _, err := DraftOperations(defs, "", "CountryInfoServiceSoap12"); err != nil {
		t.Errorf("SOAP 1.2 port: %v", err)
	}
	if _, err := DraftOperations(defs, "Nope", ""); err == nil {
		t.Error("unknown service: no error")
	}
	// Every auto mapping of the corpus file is AUTO_READY and the draft
	// is ready to publish with a backend profile.
	in := ReadinessInput{Service: model.Service{Status: model.ServiceActive, Direction: model.DirectionPublish},
		Contracts: map[string]*xsd.Operation{}, Mappings: map[string]model.Mapping{}, BackendProfiles: 1}
	for i := range ops {
		ops[i].OperationID = ops[i].OperationKey
		c := Contract(defs, "CountryInfoService", "CountryInfoServiceSoap", ops[i])
		if c == nil {
			t.Fatalf("no contract for %s", ops[i].SOAPOperationName)
		}
		in.Contracts[ops[i].OperationID] = c
		in.Mappings[ops[i].OperationID] = AutoMapping(c)
	}
	in.Operations = ops
	rep := Readiness(in)
	if rep.Status != ReadyToPublish {
		t.Errorf("readiness = %+v", rep)
	}
	if rep.MappingSummary[AutoReady] != 21 {
		t.Errorf("summary = %v", rep.MappingSummary)
	}
}

func TestDiagnose(t *testing.T) {
	defs := countryDefs(t)
	c, ok := defs.Operation("CountryInfoService", "CountryInfoServiceSoap", "CountryName")
	if !ok {
		t.Fatal("no CountryName")
	}
	auto := AutoMapping(c)
	tests := []struct {
		name     string
		req, flt string
		status   string
		field    string
	}{
		{"auto", `{"mode":"identity"}`, `{"mode":"identity"}`, AutoReady, ""},
		{"rename known", `{"rename":{"sCountryISOCode":"code"}}`, `{}`, AutoReady, ""},
		{"rename unknown", `{"rename":{"nope":"code"}}`, `{}`, ManualRequired, "nope"},
		{"omit unknown", `{"omit":["a/b"]}`, `{}`, ManualRequired, "a/b"},
		{"bad mode", `{"mode":"magic"}`, `{}`, ManualRequired, "mode"},
		{"unknown member", `{"renames":{}}`, `{}`, ManualRequired, ""},
		{"null", `null`, `{}`, ManualRequired, ""},
		{"consume target", `{"restMethod":"GET","restPath":"/c/{sCountryISOCode}","query":{"x":"sCountryISOCode"}}`, `{}`, AutoReady, ""},
		{"consume bad param", `{"restMethod":"GET","restPath":"/c/{id}"}`, `{}`, ManualRequired, "restPath"},
		{"consume bad method", `{"restMethod":"TRACE"}`, `{}`, ManualRequired, "restMethod"},
		{"pick in request", `{"pick":["x"]}`, `{}`, ManualRequired, "pick"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := auto
			m.RequestMapping, m.FaultMapping = json.RawMessage(tc.req), json.RawMessage(tc.flt)
			d := Diagnose(c, m)
			if d.Status != tc.status {
				t.Fatalf("status = %s, want %s: %+v", d.Status, tc.status, d.Reasons)
			}
			if tc.field != "" && (len(d.Reasons) == 0 || d.Reasons[0].Field != tc.field) {
				t.Errorf("reasons = %+v, want field %s first", d.Reasons, tc.field)
			}
		})
	}
	if d := Diagnose(nil, auto); d.Status != ManualRequired || d.Reasons[0].Code != ReasonNoContract {
		t.Errorf("no contract: %+v", d)
	}
}

func TestReadinessBlocked(t *testing.T) {
	defs := countryDefs(t)
	ops, err := DraftOperations(defs, "", "")
	if err != nil {
		t.Fatal(err)
	}
	ops = ops[:3]
	base := func() ReadinessInput {
		in := ReadinessInput{Service: model.Service{Status: model.ServiceActive, Direction: model.DirectionPublish},
			Contracts: map[string]*xsd.Operation{}, Mappings: map[string]model.Mapping{}, BackendProfiles: 1}
		for i := range ops {
			op := ops[i]
			op.OperationID = op.OperationKey
			c := Contract(defs, "", "", op)
			in.Contracts[op.OperationID], in.Mappings[op.OperationID] = c, AutoMapping(c)
			in.Operations = append(in.Operations, op)
		}
		return in
	}
	tests := []struct {
		name   string
		edit   func(*ReadinessInput)
		status string
		code   string
	}{
		{"ready", func(*ReadinessInput) {}, ReadyToPublish, ""},
		{"no operations", func(in *ReadinessInput) { in.Operations = nil }, Blocked, "NO_OPERATIONS"},
		{"duplicate route", func(in *ReadinessInput) { in.Operations[1].RestPath = in.Operations[0].RestPath + "/" }, Blocked, "DUPLICATE_REST_ROUTE"},
		{"bad path param", func(in *ReadinessInput) { in.Operations[0].RestPath = "/x/{nope}" }, Blocked, "INVALID_REST_PATH"},
		{"no backend", func(in *ReadinessInput) { in.BackendProfiles = 0 }, Blocked, "NO_BACKEND_PROFILE"},
		{"manual mapping", func(in *ReadinessInput) {
			m := in.Mappings[in.Operations[0].OperationID]
			m.ResponseMapping = json.RawMessage(`{"omit":["zzz"]}`)
			in.Mappings[in.Operations[0].OperationID] = m
		}, Blocked, "MANUAL_MAPPING_REQUIRED"},
		{"no mapping", func(in *ReadinessInput) { delete(in.Mappings, in.Operations[0].OperationID) }, Blocked, "MANUAL_MAPPING_REQUIRED"},
		{"bad regex", func(in *ReadinessInput) {
			in.Operations[0].ValidationRules = []model.ValidationRule{{Field: "/x", Pattern: "(", Target: "request"}}
		}, Blocked, "INVALID_VALIDATION_RULE"},
		{"bad transform", func(in *ReadinessInput) {
			in.Operations[0].TransformRules = []transform.Rule{{Kind: "explode", Field: "/x"}}
		}, Blocked, "INVALID_TRANSFORM_RULE"},
		{"consume without backend", func(in *ReadinessInput) {
			in.BackendProfiles, in.Service.Direction = 0, model.DirectionConsume
		}, ReadyWithRisk, ""},
		{"disabled service", func(in *ReadinessInput) { in.Service.Status = model.ServiceDisabled }, ReadyWithRisk, ""},
		{"async without auth", func(in *ReadinessInput) { in.Operations[0].ExecutionMode = model.ExecutionAsyncCallback }, ReadyWithRisk, ""},
		{"async without secret", func(in *ReadinessInput) {
			in.Operations[0].ExecutionMode = model.ExecutionAsyncCallback
			in.Service.CallbackAuthMode = model.CallbackAuthSharedSecret
		}, ReadyWithRisk, ""},
		{"async with secret", func(in *ReadinessInput) {
			in.Operations[0].ExecutionMode = model.ExecutionAsyncCallback
			in.Service.CallbackAuthMode = model.CallbackAuthSharedSecret
			in.Service.CallbackSecret = model.NewCredential("v1:sealed", time.Time{}, "")
		}, ReadyToPublish, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := base()
			tc.edit(&in)
			rep := Readiness(in)
			if rep.Status != tc.status {
				t.Fatalf("status = %s, want %s: %+v", rep.Status, tc.status, rep)
			}
			if tc.code != "" && (len(rep.BlockingIssues) == 0 || rep.BlockingIssues[0].Code != tc.code) {
				t.Errorf("blocking = %+v, want %s", rep.BlockingIssues, tc.code)
			}
			if tc.status != ReadyToPublish && len(rep.SuggestedActions) == 0 {
				t.Error("no suggested action")
			}
		})
	}
}
