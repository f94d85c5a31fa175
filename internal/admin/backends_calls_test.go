package admin

import (
	"crypto/tls"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/backends"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// soapBackend is a real SOAP backend on 127.0.0.1 for the calc WSDL: Add
// and Subtract compute, a == 0 answers a fault, GetInfo echoes; GET ?wsdl
// serves the WSDL. Every request must carry the wanted auth header.
type soapBackend struct {
	srv       *httptest.Server
	auth      func(*http.Request) bool
	calls     atomic.Int32
	lastBody  atomic.Value
	tokenHits atomic.Int32
}

var (
	xmlA = regexp.MustCompile(`<(?:\w+:)?a>(-?\d+)<`)
	xmlB = regexp.MustCompile(`<(?:\w+:)?b>(-?\d+)<`)
)

func newSOAPBackend(t *testing.T, tlsConf *tls.Config) *soapBackend {
	t.Helper()
	b := &soapBackend{auth: func(*http.Request) bool { return true }}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		id, sec, ok := r.BasicAuth()
		if !ok || id != "client-1" || sec != secretClient || r.FormValue("grant_type") != "client_credentials" {
			http.Error(w, "bad client", http.StatusUnauthorized)
			return
		}
		b.tokenHits.Add(1)
		io.WriteString(w, `{"access_token":"at-`+secretClient[:3]+`","token_type":"bearer","expires_in":600}`)
	})
	mux.HandleFunc("GET /calc", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, calcWSDL(calcOps))
	})
	mux.HandleFunc("/rest/", func(w http.ResponseWriter, r *http.Request) {
		if !b.auth(r) {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "path": r.URL.Path, "query": r.URL.RawQuery, "got": json.RawMessage(orNull(body))})
	})
	mux.HandleFunc("POST /calc", func(w http.ResponseWriter, r *http.Request) {
		b.calls.Add(1)
		if !b.auth(r) {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		b.lastBody.Store(string(body))
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		action := strings.Trim(r.Header.Get("SOAPAction"), `"`)
		a, _ := strconv.Atoi(first(xmlA.FindStringSubmatch(string(body))))
		bb, _ := strconv.Atoi(first(xmlB.FindStringSubmatch(string(body))))
		var content string
		switch {
		case action == "urn:GetInfo":
			content = `<c:GetInfoResponse xmlns:c="urn:calc"><c:name>calc</c:name></c:GetInfoResponse>`
		case a == 0:
			w.WriteHeader(http.StatusInternalServerError)
			content = `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>a must not be zero</faultstring></soap:Fault>`
		case action == "urn:Subtract":
			content = `<c:SubtractResponse xmlns:c="urn:calc"><c:result>` + strconv.Itoa(a-bb) + `</c:result></c:SubtractResponse>`
		default:
			content = `<c:AddResponse xmlns:c="urn:calc"><c:result>` + strconv.Itoa(a+bb) + `</c:result></c:AddResponse>`
		}
		io.WriteString(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`+content+`</soap:Body></soap:Envelope>`)
	})
	b.srv = httptest.NewUnstartedServer(mux)
	b.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if tlsConf != nil {
		b.srv.TLS = tlsConf
		b.srv.StartTLS()
	} else {
		b.srv.Start()
	}
	t.Cleanup(b.srv.Close)
	return b
}

func first(m []string) string {
	if len(m) < 2 {
		return ""
	}
	return m[1]
}

func orNull(b []byte) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}

// calcSetup imports the calc WSDL into a draft of a new publish service
// and returns the service and the operation ids by key.
func calcSetup(t *testing.T, api *testAPI, direction string) (model.Service, map[string]string) {
	t.Helper()
	art := api.importXML(calcWSDL(calcOps))
	svc := api.createService(map[string]any{"serviceKey": "calc-" + direction, "environment": "dev", "direction": direction})
	d := api.draftFrom(svc.ServiceID, art)
	ops := map[string]string{}
	for _, op := range d.Operations {
		ops[op.OperationKey] = op.OperationID
	}
	return svc, ops
}

// previewOf decodes a preview answer and its response member.
func previewOf(t *testing.T, r response) (model.TestPreview, callResultView) {
	t.Helper()
	var p model.TestPreview
	r.WantStatus(t, http.StatusOK).Decode(t, &p)
	var res callResultView
	if err := json.Unmarshal(p.Response, &res); err != nil {
		t.Fatalf("preview response %s: %v", p.Response, err)
	}
	return p, res
}

// callResultView is the saved response of a preview.
type callResultView struct {
	HTTPStatus int                 `json:"httpStatus"`
	JSON       json.RawMessage     `json:"json"`
	Fault      json.RawMessage     `json:"fault"`
	Body       string              `json:"body"`
	Error      *backends.CallError `json:"error"`
}

func TestTestApplicationEveryAuthType(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, ops := calcSetup(t, api, "publish")
		be := newSOAPBackend(t, nil)
		var answers [][]byte
		tests := []struct {
			name    string
			members map[string]any
			auth    func(*http.Request) bool
		}{
			{"none", map[string]any{}, func(r *http.Request) bool { return r.Header.Get("Authorization") == "" }},
			{"basic", map[string]any{"authType": "basic", "username": "svc", "credentials": map[string]any{"password": secretPassword}},
				func(r *http.Request) bool { u, p, ok := r.BasicAuth(); return ok && u == "svc" && p == secretPassword }},
			{"bearer", map[string]any{"authType": "bearer", "credentials": map[string]any{"token": secretToken}},
				func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+secretToken }},
			{"api_key_header", map[string]any{"authType": "api_key_header", "apiKeyHeaderName": "X-Calc-Key",
				"credentials": map[string]any{"apiKey": secretAPIKey}},
				func(r *http.Request) bool { return r.Header.Get("X-Calc-Key") == secretAPIKey }},
			{"oauth2_client_credentials", map[string]any{"authType": "oauth2_client_credentials", "tokenUrl": be.srv.URL + "/token",
				"clientId": "client-1", "credentials": map[string]any{"clientSecret": secretClient}},
				func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer at-"+secretClient[:3] }},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				be.auth = tt.auth
				tt.members["name"], tt.members["endpointUrl"] = tt.name, be.srv.URL+"/calc"
				p := api.createProfile(svc.ServiceID, tt.members)
				r := api.Do("POST", profilePath(p.ProfileID)+":test-application", operatorEmail,
					jsonBody(t, map[string]any{"operationId": ops["add"], "payload": map[string]any{"a": 2, "b": 3}}))
				answers = append(answers, r.Body)
				prev, res := previewOf(t, r)
				if prev.Status != model.PreviewStatusSucceeded || string(res.JSON) != `{"result":5}` || prev.HTTPStatus != 200 {
					t.Fatalf("preview %+v, response %s", prev, prev.Response)
				}
				if !strings.Contains(string(prev.Request), "<soap:Envelope") && !strings.Contains(string(prev.Request), "Envelope") {
					t.Errorf("request holds no envelope: %s", prev.Request)
				}
			})
		}
		if be.tokenHits.Load() != 1 {
			t.Errorf("token fetches = %d, want 1", be.tokenHits.Load())
		}
		r := api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/backend-profiles", readerEmail, "")
		answers = append(answers, r.Body)
		var list []model.BackendProfile
		r.Decode(t, &list)
		for _, p := range list {
			pr := api.Do("GET", profilePath(p.ProfileID)+"/test-previews?pageSize=10", readerEmail, "").WantStatus(t, http.StatusOK)
			answers = append(answers, pr.Body)
			var page model.ObservabilityPageRecord[model.TestPreview]
			pr.Decode(t, &page)
			if page.TotalItems != 1 || page.Items[0].Kind != model.PreviewApplication {
				t.Errorf("%s previews = %+v", p.Name, page)
			}
		}
		api.assertNoSecrets(answers...)
	})
}

func TestTestApplicationOutcomes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, ops := calcSetup(t, api, "publish")
		be := newSOAPBackend(t, nil)
		p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": be.srv.URL + "/calc"})
		call := func(body map[string]any) response {
			return api.Do("POST", profilePath(p.ProfileID)+":test-application", operatorEmail, jsonBody(t, body))
		}
		prev, res := previewOf(t, call(map[string]any{"operationId": ops["add"], "payload": map[string]any{"a": 0, "b": 3}}))
		if prev.Status != model.PreviewStatusSOAPFault || res.Error.Code != apierr.RunBackendFault ||
			!strings.Contains(string(res.Fault), `"faultString":"a must not be zero"`) {
			t.Errorf("fault preview %+v %s", prev, prev.Response)
		}
		prev, res = previewOf(t, call(map[string]any{"operationId": ops["subtract"], "payload": map[string]any{"b": 3, "a": 10}}))
		if string(res.JSON) != `{"result":7}` || !strings.Contains(be.lastBody.Load().(string), "<a>10</a><b>3</b>") &&
			!strings.Contains(be.lastBody.Load().(string), ":a>10</") {
			t.Errorf("subtract: %s; backend saw %s", prev.Response, be.lastBody.Load())
		}
		// A dataset as payload.
		var d model.TestDataset
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/test-datasets", operatorEmail, `{"name":"d","payload":{"a":4,"b":4}}`).
			WantStatus(t, http.StatusCreated).Decode(t, &d)
		_, res = previewOf(t, call(map[string]any{"operationId": ops["add"], "datasetId": d.DatasetID}))
		if string(res.JSON) != `{"result":8}` {
			t.Errorf("dataset call: %+v", res)
		}
		for _, tt := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"bad payload", map[string]any{"operationId": ops["add"], "payload": map[string]any{"a": "x", "b": 1}}, "payload"},
			{"unknown member", map[string]any{"operationId": ops["add"], "payload": map[string]any{"a": 1, "b": 1, "c": 1}}, "payload"},
			{"no operation", map[string]any{"payload": map[string]any{}}, "operationId"},
			{"foreign operation", map[string]any{"operationId": "nope", "payload": map[string]any{}}, "operationId"},
			{"no payload", map[string]any{"operationId": ops["add"]}, "payload"},
			{"both", map[string]any{"operationId": ops["add"], "payload": map[string]any{}, "datasetId": d.DatasetID}, "datasetId"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				call(tt.body).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, tt.field)
			})
		}
		// Backend down, and auth configuration incomplete: 200 with the runtime's code.
		down := api.createProfile(svc.ServiceID, map[string]any{"name": "down", "endpointUrl": "http://" + loopback.FreeAddr(t) + "/calc", "retryCount": 1})
		prev, res = previewOf(t, api.Do("POST", profilePath(down.ProfileID)+":test-application", operatorEmail,
			jsonBody(t, map[string]any{"operationId": ops["add"], "payload": map[string]any{"a": 1, "b": 1}})))
		if prev.Status != model.PreviewStatusFailed || res.Error.Code != apierr.RunBackendFault {
			t.Errorf("down backend: %+v %s", prev, prev.Response)
		}
		noPass := api.createProfile(svc.ServiceID, map[string]any{"name": "nopass", "endpointUrl": be.srv.URL + "/calc",
			"authType": "basic", "username": "u"})
		_, res = previewOf(t, api.Do("POST", profilePath(noPass.ProfileID)+":test-application", operatorEmail,
			jsonBody(t, map[string]any{"operationId": ops["add"], "payload": map[string]any{"a": 1, "b": 1}})))
		if res.Error == nil || res.Error.Code != apierr.RunBackendAuth {
			t.Errorf("missing password: %+v", res)
		}
		api.Do("POST", profilePath("nope")+":test-application", operatorEmail, `{}`).WantError(t, http.StatusNotFound, apierr.AdmNotFound)
	})
}

func TestTestApplicationMTLS(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, ops := calcSetup(t, api, "publish")
		pki := loopback.NewPKI(t)
		be := newSOAPBackend(t, &tls.Config{Certificates: []tls.Certificate{pki.ServerCert}, ClientCAs: pki.CAPool,
			ClientAuth: tls.RequireAndVerifyClientCert})
		be.auth = func(r *http.Request) bool { return len(r.TLS.PeerCertificates) == 1 }
		p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": be.srv.URL + "/calc", "mtlsEnabled": true,
			"clientCertPem": pki.ClientCertPEM, "caCertPem": pki.CAPEM, "credentials": map[string]any{"clientKeyPem": pki.ClientKeyPEM}})
		prev, res := previewOf(t, api.Do("POST", profilePath(p.ProfileID)+":test-application", operatorEmail,
			jsonBody(t, map[string]any{"operationId": ops["add"], "payload": map[string]any{"a": 20, "b": 22}})))
		if prev.Status != model.PreviewStatusSucceeded || string(res.JSON) != `{"result":42}` {
			t.Errorf("mTLS call: %+v %s", prev, prev.Response)
		}
		api.Do("PATCH", Prefix+"/settings", adminEmail, `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`).WantStatus(t, http.StatusOK)
		var conn backends.ConnectionReport
		api.Do("POST", profilePath(p.ProfileID)+":test-connection", operatorEmail, "").WantStatus(t, http.StatusOK).Decode(t, &conn)
		if len(conn.Steps) != 4 || conn.Steps[2].Name != "tls" || conn.Steps[2].Status != backends.StepOK {
			t.Errorf("mTLS connection report %+v", conn)
		}
		noCA := api.createProfile(svc.ServiceID, map[string]any{"name": "no-ca", "endpointUrl": be.srv.URL + "/calc"})
		api.Do("POST", profilePath(noCA.ProfileID)+":test-connection", operatorEmail, "").WantStatus(t, http.StatusOK).Decode(t, &conn)
		if conn.Steps[2].Status != backends.StepFailed || !strings.Contains(conn.Steps[2].Message, "unknown authority") {
			t.Errorf("connection without the CA: %+v", conn.Steps[2])
		}
		// Without the client certificate the handshake is refused.
		api.Do("PATCH", profilePath(p.ProfileID), operatorEmail, `{"mtlsEnabled":false}`).WantStatus(t, http.StatusOK)
		prev, _ = previewOf(t, api.Do("POST", profilePath(p.ProfileID)+":test-application", operatorEmail,
			jsonBody(t, map[string]any{"operationId": ops["add"], "payload": map[string]any{"a": 1, "b": 1}})))
		if prev.Status != model.PreviewStatusFailed {
			t.Errorf("call without client certificate: %+v", prev)
		}
		if strings.Contains(api.logs.String(), "PRIVATE KEY") {
			t.Error("the client key reached the logs")
		}
	})
}

func TestGeneratedSamplesAndConnection(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, ops := calcSetup(t, api, "publish")
		be := newSOAPBackend(t, nil)
		p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": be.srv.URL + "/calc"})
		var rep backends.SamplesReport
		api.Do("POST", profilePath(p.ProfileID)+":test-generated-samples", operatorEmail, "").WantStatus(t, http.StatusOK).Decode(t, &rep)
		if rep.Summary["total"] != 3 || rep.Summary[model.PreviewStatusSucceeded] != 3 || len(rep.Results) != 3 {
			t.Errorf("batch report %+v", rep)
		}
		api.Do("POST", profilePath(p.ProfileID)+":test-generated-samples", operatorEmail, jsonBody(t, map[string]any{"operationId": ops["get-info"]})).
			WantStatus(t, http.StatusOK).Decode(t, &rep)
		if rep.Summary["total"] != 1 || rep.Results[0].Status != model.PreviewStatusSucceeded {
			t.Errorf("single report %+v", rep)
		}
		api.Do("POST", profilePath(p.ProfileID)+":test-generated-samples", operatorEmail, `{"versionId":"nope"}`).WantFieldError(
			t, http.StatusBadRequest, apierr.ValBadRequest, "versionId")

		var conn backends.ConnectionReport
		api.Do("POST", profilePath(p.ProfileID)+":test-connection", operatorEmail, "").WantStatus(t, http.StatusOK).Decode(t, &conn)
		if conn.Status != backends.StepFailed || conn.Steps[0].Status != backends.StepOK || conn.Steps[1].Status != backends.StepFailed || conn.Steps[2].Status != backends.StepFailed {
			t.Errorf("loopback without the allow list: %+v", conn)
		}
		api.Do("PATCH", Prefix+"/settings", adminEmail, `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`).WantStatus(t, http.StatusOK)
		api.Do("POST", profilePath(p.ProfileID)+":test-connection", operatorEmail, "").WantStatus(t, http.StatusOK).Decode(t, &conn)
		if conn.Status != backends.StepOK || len(conn.Steps) != 3 || conn.Steps[0].Addresses[0] != "127.0.0.1" || conn.Steps[2].Bytes == 0 {
			t.Errorf("connection report %+v", conn)
		}
		down := api.createProfile(svc.ServiceID, map[string]any{"name": "down", "endpointUrl": "http://" + loopback.FreeAddr(t) + "/calc"})
		api.Do("POST", profilePath(down.ProfileID)+":test-connection", operatorEmail, "").WantStatus(t, http.StatusOK).Decode(t, &conn)
		if conn.Status != backends.StepFailed || conn.Steps[1].Message != "connection refused" {
			t.Errorf("down backend report %+v", conn)
		}
		nx := api.createProfile(svc.ServiceID, map[string]any{"name": "nx", "endpointUrl": "http://no-such-host.invalid/calc"})
		api.Do("POST", profilePath(nx.ProfileID)+":test-connection", operatorEmail, "").WantStatus(t, http.StatusOK).Decode(t, &conn)
		if conn.Steps[0].Status != backends.StepFailed || conn.Steps[1].Status != backends.StepSkipped {
			t.Errorf("unknown host report %+v", conn)
		}
	})
}

func TestTestREST(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, _ := calcSetup(t, api, "consume")
		be := newSOAPBackend(t, nil)
		be.auth = func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+secretToken }
		p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": be.srv.URL + "/rest", "authType": "bearer",
			"credentials": map[string]any{"token": secretToken}})
		r := api.Do("POST", profilePath(p.ProfileID)+":test-rest", operatorEmail, `{"method":"post","path":"/items?x=1","body":{"a":1}}`)
		prev, res := previewOf(t, r)
		if prev.Status != model.PreviewStatusSucceeded || prev.Kind != model.PreviewREST ||
			string(res.JSON) != `{"got":{"a":1},"method":"POST","path":"/rest/items","query":"x=1"}` {
			t.Errorf("rest preview %+v %s", prev, prev.Response)
		}
		for _, tt := range []struct{ name, body, field string }{
			{"method", `{"method":"TRACE"}`, "method"},
			{"dotdot", `{"method":"GET","path":"/../x"}`, "path"},
			{"absolute", `{"method":"GET","path":"http://evil/"}`, "path"},
			{"scheme-relative", `{"method":"GET","path":"//evil/"}`, "path"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				api.Do("POST", profilePath(p.ProfileID)+":test-rest", operatorEmail, tt.body).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, tt.field)
			})
		}
		pubSvc, _ := calcSetup(t, api, "publish")
		pub := api.createProfile(pubSvc.ServiceID, map[string]any{"endpointUrl": be.srv.URL + "/rest"})
		api.Do("POST", profilePath(pub.ProfileID)+":test-rest", operatorEmail, `{"method":"GET"}`).WantError(t, http.StatusBadRequest, apierr.ValBadRequest)
		api.assertNoSecrets(r.Body)
	})
}
