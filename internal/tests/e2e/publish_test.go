package e2e

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

const postmanDir = "postmanlabs+wsdl-to-postman/test/data/validWSDLs11/"
const cxfDir = "apache+cxf/testutils/src/main/resources/wsdl/"

// publishCall posts JSON to a publish route.
func (s *server) publishCall(t *testing.T, serviceKey, opKey string, body any) resp {
	t.Helper()
	return s.do(t, "POST", "/publish/dev/"+serviceKey+"/"+opKey, "", body)
}

// settledCall is publishCall retried while the route table has not yet
// taken the latest admin changes (the reload is asynchronous): no route
// yet, or the WSDL's original backend address, unreachable from tests.
func (s *server) settledCall(t *testing.T, serviceKey, opKey string, body any) resp {
	t.Helper()
	var r resp
	poll.UntilOK(t, settle, "publish "+serviceKey+"/"+opKey, func() string {
		r = s.publishCall(t, serviceKey, opKey, body)
		if (r.Status == 404 && strings.Contains(string(r.Body), "no active publish service")) ||
			(r.Status == 502 && strings.Contains(string(r.Body), "could not be reached")) {
			return string(r.Body)
		}
		return ""
	})
	return r
}

// wantJSON compares an answer's JSON with want exactly.
func wantJSON(t *testing.T, r resp, want string) {
	t.Helper()
	var got, w any
	if err := json.Unmarshal(r.Body, &got); err != nil {
		t.Fatalf("answer is not JSON (%v): %.800s", err, r.Body)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want: %v", err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Fatalf("answer %s\nwant   %s", r.Body, want)
	}
}

// TestPublishTraffic onboards real corpus WSDLs, points them at a SOAP
// backend run by the test and checks exact JSON values of REST calls, the
// error answers of client mistakes, the runtime logs and the audit trail.
func TestPublishTraffic(t *testing.T) {
	corpusDir(t)
	forEachBackend(t, func(t *testing.T, s *server) {
		be := newSOAPBackend(t)

		calc := s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "calc", "", be.srv.URL+"/initial")
		country := s.onboard(t, corpusFile(t, postmanDir+"countryInformation.wsdl"), nil, "country", "", be.srv.URL+"/initial")
		rpc := s.onboard(t, corpusFile(t, cxfDir+"hello_world_rpc_lit.wsdl"), nil, "hello-rpc", "", be.srv.URL+"/initial")
		arr := s.onboard(t, corpusFile(t, cxfDir+"string_array_test.wsdl"), nil, "strarr", "", be.srv.URL+"/initial")
		for _, o := range []onboarded{calc, country, rpc, arr} {
			s.pointBackend(t, o, be.srv.URL+"/"+o.serviceKey)
		}

		be.answer11("Add", `<t:AddResponse xmlns:t="http://tempuri.org/"><AddResult>5</AddResult></t:AddResponse>`)
		be.answer11("Divide", `<t:DivideResponse xmlns:t="http://tempuri.org/"><DivideResult>-7</DivideResult></t:DivideResponse>`)
		be.answer11("CapitalCity", `<m:CapitalCityResponse xmlns:m="http://www.oorsprong.org/websamples.countryinfo"><CapitalCityResult>Amsterdam</CapitalCityResult></m:CapitalCityResponse>`)
		be.answer11("ListOfContinentsByName", `<m:ListOfContinentsByNameResponse xmlns:m="http://www.oorsprong.org/websamples.countryinfo"><ListOfContinentsByNameResult>`+
			`<tContinent><sCode>AF</sCode><sName>Africa</sName></tContinent>`+
			`<tContinent><sCode>EU</sCode><sName>Europe</sName></tContinent>`+
			`</ListOfContinentsByNameResult></m:ListOfContinentsByNameResponse>`)
		be.answer11("StringListTest", `<ns:StringListTestResponse xmlns:ns="http://apache.org/stringarray"><out>x y  z</out></ns:StringListTestResponse>`)
		be.answer11("greetUs", `<ns:greetUsResponse xmlns:ns="http://apache.org/hello_world_rpclit"><out>Hello you and me</out></ns:greetUsResponse>`)

		r := s.settledCall(t, "calc", "add", `{"intA": 2, "intB": 3}`).WantStatus(t, 200)
		wantJSON(t, r, `{"AddResult":5}`)
		if got, h := be.request("Add"); !strings.Contains(got, "<intA>2</intA><intB>3</intB>") || h.Get("SOAPAction") != `"http://tempuri.org/Add"` {
			t.Errorf("backend got SOAPAction %q, envelope %s", h.Get("SOAPAction"), got)
		}
		wantJSON(t, s.publishCall(t, "calc", "divide", `{"intA": 14, "intB": -2}`).WantStatus(t, 200), `{"DivideResult":-7}`)

		wantJSON(t, s.settledCall(t, "country", "capital-city", `{"sCountryISOCode": "NL"}`).WantStatus(t, 200), `{"CapitalCityResult":"Amsterdam"}`)
		if got, _ := be.request("CapitalCity"); !strings.Contains(got, ">NL</") {
			t.Errorf("backend got %s", got)
		}
		wantJSON(t, s.settledCall(t, "country", "list-of-continents-by-name", `{}`).WantStatus(t, 200),
			`{"ListOfContinentsByNameResult":{"tContinent":[{"sCode":"AF","sName":"Africa"},{"sCode":"EU","sName":"Europe"}]}}`)

		wantJSON(t, s.settledCall(t, "hello-rpc", "greet-us", `{"you": "you", "me": "me"}`).WantStatus(t, 200), `{"out":"Hello you and me"}`)
		if got, _ := be.request("greetUs"); !strings.Contains(got, "<you>you</you><me>me</me>") {
			t.Errorf("backend got %s", got)
		}
		wantJSON(t, s.settledCall(t, "strarr", "string-list-test", `{"in":["a","b"]}`).WantStatus(t, 200), `{"out":["x","y","z"]}`)
		if got, _ := be.request("StringListTest"); !strings.Contains(got, "<in>a b</in>") {
			t.Errorf("backend got %s", got)
		}
		cids := []string{r.Header.Get("X-Correlation-Id")}
		probes := []struct {
			method, path, body string
			status             int
			code               string
		}{
			{"POST", "/publish/dev/calc/nosuchop", `{}`, 404, "S2R-RUN-0404"},
			{"POST", "/publish/dev/nosuchservice/add", `{}`, 404, "S2R-RUN-0404"},
			{"POST", "/publish/prod/calc/add", `{}`, 404, "S2R-RUN-0404"},
			{"GET", "/no/such/route", "", 400, "S2R-RUN-0405"},
			{"POST", "/publish/", "", 400, "S2R-RUN-0405"},
			{"POST", "/publish/dev/calc/add", `{"intA": 2,`, 400, "S2R-VAL-0400"},
			{"POST", "/publish/dev/calc/add", `{"intA": "two", "intB": 3}`, 400, "S2R-VAL-0410"},
			{"POST", "/publish/dev/calc/add", `{"intA": 2}`, 400, "S2R-VAL-0410"},
			{"POST", "/publish/dev/calc/add", `{"intA": 2, "intB": 3, "extra": 1}`, 400, "S2R-VAL-0410"},
			{"POST", "/publish/dev/calc/add", `[1,2]`, 400, "S2R-VAL-0410"},
			{"POST", "/publish/dev/calc/add", `{"intA": 99999999999, "intB": 3}`, 400, "S2R-VAL-0410"},
			{"GET", "/publish/dev/calc/add", "", 405, "S2R-RUN-0411"},
			{"POST", "/publish/dev/calc/%2e%2e/add", `{}`, 404, "S2R-RUN-0404"},
			{"POST", "/publish/dev/calc/add", `{"intA": 2, "intB": 3}` + strings.Repeat(" ", 11<<20), 413, "S2R-RUN-0413"},
		}
		for _, p := range probes {
			var body any
			if p.body != "" {
				body = p.body
			}
			r := s.do(t, p.method, p.path, "", body)
			if r.Status != p.status || r.Code() != p.code {
				t.Errorf("%s %s: %d %.300s, want %d %s", p.method, p.path, r.Status, r.Body, p.status, p.code)
			}
			if p.code != "S2R-RUN-0405" {
				cids = append(cids, r.Header.Get("X-Correlation-Id"))
			}
		}
		be.fault11("Multiply", "Server", "overflow")
		r = s.publishCall(t, "calc", "multiply", `{"intA": 2, "intB": 3}`)
		if r.Status != 502 || r.Code() != "S2R-RUN-0502" || admintest.Dig(r.JSON(t), "error", "details", "faultCode") != "Receiver" {
			t.Errorf("backend fault: %d %s", r.Status, r.Body)
		}
		cids = append(cids, r.Header.Get("X-Correlation-Id"))

		// Every runtime call is in the runtime logs (recorded asynchronously).
		for _, cid := range cids {
			poll.UntilOK(t, settle, "runtime log of "+cid, func() string {
				r := s.admin(t, "GET", "/runtime-logs?correlationId="+cid, nil).WantStatus(t, 200)
				var page struct{ Items []map[string]any }
				_ = json.Unmarshal(r.Body, &page)
				if len(page.Items) != 1 || page.Items[0]["correlationId"] != cid {
					return "not recorded: " + string(r.Body)
				}
				return ""
			})
		}
		// Every admin change is in the audit trail.
		r = s.admin(t, "GET", "/audit-events?pageSize=200", nil).WantStatus(t, 200)
		var ae struct{ Items []map[string]any }
		if err := json.Unmarshal(r.Body, &ae); err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for _, it := range ae.Items {
			if it["actorEmail"] == adminEmail && it["result"] == "success" {
				count[it["actionType"].(string)]++
			}
		}
		for action, n := range map[string]int{"wsdl.import": 4, "service.create": 4, "version.create": 4, "version.activate": 4, "backend_profile.create": 4, "backend_profile.update": 4} {
			if count[action] != n {
				t.Errorf("audit events %s: %d, want %d (all: %v)", action, count[action], n, count)
			}
		}
	})
}
