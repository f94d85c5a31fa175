package dataplane

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
)

// TestPublishValidationModes: a real SOAP backend on 127.0.0.1 answers a
// response that breaks the contract; strict refuses it as before, detect
// answers what converts and records each violation, off answers it and
// records nothing.
func TestPublishValidationModes(t *testing.T) {
	extra := envelope11(`<AddResponse xmlns="http://example.com/calc"><result>3</result><bonus>1</bonus></AddResponse>`)
	badFacet := envelope11(`<StatusResponse xmlns="http://example.com/calc"><state>WEIRD</state></StatusResponse>`)
	// The strict plan stops at extra; the lax plan notes it and the
	// schema then checks the facets only (one issue each, not again the
	// unknown member).
	facetAndExtra := envelope11(`<StatusResponse xmlns="http://example.com/calc"><state>WEIRD</state><extra/></StatusResponse>`)
	badLookup := envelope11(`<LookupResponse xmlns="http://example.com/calc"><id>abc</id><tags>a</tags><total>1.5</total></LookupResponse>`)
	tests := []struct {
		name, mode, path, body, answer string
		wantStatus                     int
		wantBody, wantCode             string
		wantIssues                     []model.ValidationIssue
	}{
		{name: "strict unexpected element", mode: model.ValidationStrict, path: "/add", body: `{"a":1,"b":2}`, answer: extra,
			wantStatus: 502, wantCode: "S2R-RUN-0506"},
		{name: "default is strict", mode: "", path: "/add", body: `{"a":1,"b":2}`, answer: extra,
			wantStatus: 502, wantCode: "S2R-RUN-0506"},
		{name: "detect unexpected element", mode: model.ValidationDetect, path: "/add", body: `{"a":1,"b":2}`, answer: extra,
			wantStatus: 200, wantBody: `{"result":3}`,
			wantIssues: []model.ValidationIssue{{Pointer: "/Envelope/Body/AddResponse/bonus",
				Reason: "unknown element {http://example.com/calc}bonus"}}},
		{name: "off unexpected element", mode: model.ValidationOff, path: "/add", body: `{"a":1,"b":2}`, answer: extra,
			wantStatus: 200, wantBody: `{"result":3}`},
		{name: "strict bad facet", mode: model.ValidationStrict, path: "/status", body: `{"state":"OPEN"}`, answer: badFacet,
			wantStatus: 502, wantCode: "S2R-VAL-0430"},
		{name: "detect bad facet", mode: model.ValidationDetect, path: "/status", body: `{"state":"OPEN"}`, answer: badFacet,
			wantStatus: 200, wantBody: `{"state":"WEIRD"}`,
			wantIssues: []model.ValidationIssue{{Pointer: "/state", Reason: "value must be one of 'OPEN', 'CLOSED'"}}},
		{name: "off bad facet", mode: model.ValidationOff, path: "/status", body: `{"state":"OPEN"}`, answer: badFacet,
			wantStatus: 200, wantBody: `{"state":"WEIRD"}`},
		{name: "detect structure and facet", mode: model.ValidationDetect, path: "/status", body: `{"state":"OPEN"}`, answer: facetAndExtra,
			wantStatus: 200, wantBody: `{"state":"WEIRD"}`,
			wantIssues: []model.ValidationIssue{
				{Pointer: "/Envelope/Body/StatusResponse/extra", Reason: "unknown element {http://example.com/calc}extra"},
				{Pointer: "/state", Reason: "value must be one of 'OPEN', 'CLOSED'"}}},
		{name: "detect bad value and missing element", mode: model.ValidationDetect, path: "/lookup", body: `{"code":"x"}`, answer: badLookup,
			wantStatus: 200, wantBody: `{"id":null,"tags":["a"],"total":1.5}`,
			wantIssues: []model.ValidationIssue{
				{Pointer: "/Envelope/Body/LookupResponse/id", Reason: `invalid xs:long value "abc"`},
				{Pointer: "/Envelope/Body/LookupResponse/name", Reason: "missing required element name"}}},
		{name: "off bad value and missing element", mode: model.ValidationOff, path: "/lookup", body: `{"code":"x"}`, answer: badLookup,
			wantStatus: 200, wantBody: `{"id":null,"tags":["a"],"total":1.5}`},
		{name: "detect not a SOAP envelope", mode: model.ValidationDetect, path: "/add", body: `{"a":1,"b":2}`, answer: "<html>",
			wantStatus: 502, wantCode: "S2R-RUN-0504"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newPublishEnv(t, func(s *routing.Source) {
				for i := range s.Operations {
					s.Operations[i].ResponseValidation = tc.mode
				}
			})
			e.backend.set(answer(200, "text/xml", tc.answer))
			cid := "vm-" + strings.ReplaceAll(tc.name, " ", "-")
			res := e.call(t, "POST", "/publish/dev/calc"+tc.path, "application/json", tc.body, cid)
			if res.status != tc.wantStatus || res.err.Error.Code != tc.wantCode {
				t.Fatalf("answer %d %s, want %d %s: %s", res.status, res.err.Error.Code, tc.wantStatus, tc.wantCode, res.body)
			}
			if tc.wantBody != "" && string(res.body) != tc.wantBody {
				t.Errorf("body = %s, want %s", res.body, tc.wantBody)
			}
			recs := e.log.byCID(cid)
			if len(recs) != 1 {
				t.Fatalf("records = %d", len(recs))
			}
			if diff := cmp.Diff(tc.wantIssues, recs[0].ValidationIssues); diff != "" {
				t.Errorf("validation issues (-want +got):\n%s", diff)
			}
			if tc.wantStatus == 200 && recs[0].ResultCode != model.ResultSuccess {
				t.Errorf("result = %s", recs[0].ResultCode)
			}
		})
	}
}

// TestConsumeValidationModes: a REST backend answers a member the
// contract does not have; detect removes it, answers and records it.
func TestConsumeValidationModes(t *testing.T) {
	for _, tc := range []struct {
		mode       string
		wantStatus int
		wantIssues int
	}{
		{model.ValidationStrict, 500, 0},
		{model.ValidationDetect, 200, 1},
		{model.ValidationOff, 200, 0},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			e := newConsumeEnv(t, Config{}, func(s *routing.Source) { s.Operations[0].ResponseValidation = tc.mode })
			e.rest.set(jsonAnswer(200, `{"order":{"id":7,"name":"n","surprise":"x","total":1,"paid":true,"tags":[],"note":null}}`))
			res := e.post(t, "text/xml", "", soap11(getOrder), "cv-"+tc.mode)
			if res.status != tc.wantStatus {
				t.Fatalf("status = %d: %s", res.status, res.body)
			}
			recs := e.log.byCID("cv-" + tc.mode)
			if len(recs) != 1 || len(recs[0].ValidationIssues) != tc.wantIssues {
				t.Fatalf("records = %+v", recs)
			}
			if tc.wantIssues > 0 && recs[0].ValidationIssues[0].Pointer != "/order/surprise" {
				t.Errorf("issues = %+v", recs[0].ValidationIssues)
			}
			if tc.wantStatus == http.StatusOK && (strings.Contains(res.body, "surprise") || !strings.Contains(res.body, "<ns1:id>7</ns1:id>")) {
				t.Errorf("answer = %s", res.body)
			}
		})
	}
}

// TestConsumeDetectListsEveryIssue: a REST backend answers undeclared
// members at two depths and a value of the wrong type; detect answers
// what converts and lists each one at its pointer, once. With more than
// 20, the answer still converts and the rest are counted in the marker.
func TestConsumeDetectListsEveryIssue(t *testing.T) {
	e := newConsumeEnv(t, Config{}, func(s *routing.Source) { s.Operations[0].ResponseValidation = model.ValidationDetect })
	e.rest.set(jsonAnswer(200, `{"extra":1,"order":{"id":7,"name":"n","more":{"x":1},"total":1,"paid":true,"tags":["a",{"b":1}],"note":null}}`))
	res := e.post(t, "text/xml", "", soap11(getOrder), "cd-many")
	if res.status != http.StatusOK || strings.Contains(res.body, "more") || !strings.Contains(res.body, "<ns1:tags>a</ns1:tags>") {
		t.Fatalf("answer %d: %s", res.status, res.body)
	}
	want := []model.ValidationIssue{
		{Pointer: "/extra", Reason: `unknown member "extra"`},
		{Pointer: "/order/more", Reason: `unknown member "more"`},
		{Pointer: "/order/tags/1", Reason: "got object, want string"},
	}
	if diff := cmp.Diff(want, e.log.byCID("cd-many")[0].ValidationIssues); diff != "" {
		t.Errorf("validation issues (-want +got):\n%s", diff)
	}

	var many strings.Builder
	for i := range 25 {
		fmt.Fprintf(&many, `"x%02d":1,`, i)
	}
	e.rest.set(jsonAnswer(200, `{"order":{`+many.String()+`"id":7,"name":"n","total":1,"paid":true,"tags":[],"note":null}}`))
	res = e.post(t, "text/xml", "", soap11(getOrder), "cd-cap")
	if res.status != http.StatusOK || !strings.Contains(res.body, "<ns1:id>7</ns1:id>") {
		t.Fatalf("answer %d: %s", res.status, res.body)
	}
	got := e.log.byCID("cd-cap")[0].ValidationIssues
	if len(got) != maxResponseIssues+1 || got[0].Pointer != "/order/x00" || got[maxResponseIssues] != model.OmittedIssues(5) ||
		model.IssueCount(got) != 25 {
		t.Errorf("validation issues = %+v", got)
	}
}

func TestRemovePointer(t *testing.T) {
	for _, tc := range []struct {
		doc, pointer, want string
		ok                 bool
	}{
		{`{"a":{"b":1,"c":2}}`, "/a/b", `{"a":{"c":2}}`, true},
		{`{"a":[1,2,3]}`, "/a/1", `{"a":[1,3]}`, true},
		{`{"a":[{"x":1,"y":2}]}`, "/a/0/y", `{"a":[{"x":1}]}`, true},
		{`{"a~/b":1}`, "/a~0~1b", `{}`, true},
		{`{"a":1}`, "/", `{"a":1}`, false},
		{`{"a":1}`, "/b", `{"a":1}`, false},
		{`{"a":[1]}`, "/a/5", `{"a":[1]}`, false},
		{`{"a":"s"}`, "/a/b", `{"a":"s"}`, false},
	} {
		doc, err := decodeNumbers([]byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := removePointer(doc, tc.pointer)
		b, _ := marshalJSON(got)
		if ok != tc.ok || string(b) != tc.want {
			t.Errorf("removePointer(%s, %s) = %s, %v; want %s, %v", tc.doc, tc.pointer, b, ok, tc.want, tc.ok)
		}
	}
}
