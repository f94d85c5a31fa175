package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
)

// TestAdminWritesReadTheirWrites runs s2r serve and checks issue 24: a
// write that changes what the runtime serves answers only once this
// instance serves it. Each of many fresh services is activated and its
// first runtime call, sent the moment the 200 arrives and never retried,
// is served; disabling, re-enabling and changing a service's envelope
// are served at once too.
func TestAdminWritesReadTheirWrites(t *testing.T) {
	wsdlText, err := os.ReadFile("../../internal/dataplane/testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		io.WriteString(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`+
			`<AddResponse xmlns="http://example.com/calc"><result>3</result></AddResponse></soap:Body></soap:Envelope>`)
	}))
	defer backend.Close()
	base, adminURL, stop := serveFresh(t)
	defer stop()
	const activations = 20
	var last string // the last service activated
	for i := range activations {
		key := "ryw-" + strconv.Itoa(i)
		var auto struct {
			Service struct{ ServiceID string } `json:"service"`
			Version struct{ VersionID string } `json:"version"`
		}
		body, _ := json.Marshal(map[string]any{"xml": string(wsdlText), "environment": "dev", "serviceKey": key,
			"backendUrl": backend.URL + "/calc"})
		adminCall(t, "POST", adminURL+"/wsdl/import-xml:autopilot", string(body), http.StatusCreated, &auto)
		activated := admintest.NewClient(t, "").Do("POST", adminURL+"/services/"+auto.Service.ServiceID+
			"/versions/"+auto.Version.VersionID+":activate", "ops@example.com", "").WantStatus(t, http.StatusOK)
		if status, b := postJSON(t, base+"/publish/dev/"+key+"/add", `{"a":1,"b":2}`); status != http.StatusOK {
			t.Fatalf("activation %d: the first call after the 200 answered %d %s", i, status, b)
		}
		if err := caughtUp(activated.Header); err != nil {
			t.Errorf("activation %d: %v", i, err)
		}
		last = auto.Service.ServiceID
	}
	add := base + "/publish/dev/ryw-" + strconv.Itoa(activations-1) + "/add"
	for i := range 10 {
		adminCall(t, "PATCH", adminURL+"/services/"+last, `{"status":"disabled"}`, http.StatusOK, nil)
		if status, b := postJSON(t, add, `{"a":1,"b":2}`); status != http.StatusNotFound {
			t.Fatalf("disable %d: the first call after the 200 answered %d %s", i, status, b)
		}
		adminCall(t, "PATCH", adminURL+"/services/"+last, `{"status":"active"}`, http.StatusOK, nil)
		if status, b := postJSON(t, add, `{"a":1,"b":2}`); status != http.StatusOK {
			t.Fatalf("enable %d: the first call after the 200 answered %d %s", i, status, b)
		}
		field := "data" + strconv.Itoa(i)
		adminCall(t, "PATCH", adminURL+"/services/"+last, `{"envelopeWrapOverride":{"dataField":"`+field+`"}}`, http.StatusOK, nil)
		if _, b := postJSON(t, add, `{"a":1,"b":2}`); !strings.HasPrefix(b, `{"`+field+`":`) {
			t.Fatalf("envelope %d: the first call after the 200 answered %s", i, b)
		}
	}
	if err := stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
}

// caughtUp checks the revision headers of a write's answer: the runtime
// revision is at least the committed one.
func caughtUp(h http.Header) error {
	committed, err1 := strconv.ParseInt(h.Get(admin.HeaderConfigRevision), 10, 64)
	served, err2 := strconv.ParseInt(h.Get(admin.HeaderRuntimeRevision), 10, 64)
	if err1 != nil || err2 != nil || served < committed {
		return fmt.Errorf("%s %q, %s %q: the runtime did not catch up", admin.HeaderConfigRevision,
			h.Get(admin.HeaderConfigRevision), admin.HeaderRuntimeRevision, h.Get(admin.HeaderRuntimeRevision))
	}
	return nil
}
