package dataplane

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// filesEnv is a dispatcher serving the files service of
// testdata/mtom/files.wsdl (POST /download) against url, with a payload
// limit of maxMB.
func filesEnv(t *testing.T, url string, maxMB int) *publishEnv {
	t.Helper()
	b, err := os.ReadFile("testdata/mtom/files.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	defs, err := wsdl.ParseFiles(context.Background(), "files.wsdl", map[string][]byte{"files.wsdl": b})
	if err != nil {
		t.Fatal(err)
	}
	p := model.BackendProfile{ProfileID: "b1", ServiceID: "svc-files", Name: "primary", EndpointURL: url}
	model.ApplyBackendDefaults(&p)
	svc, err := routing.Compile(routing.Source{
		Service: model.Service{ServiceID: "svc-files", ServiceKey: "files", Environment: "dev",
			Direction: model.DirectionPublish, Status: model.ServiceActive},
		Version:  model.Version{VersionID: "v1"},
		Contract: defs,
		Operations: []model.Operation{{OperationID: "op-dl", OperationKey: "download", SOAPOperationName: "Download",
			SOAPVersion: "1.1", SOAPAction: "http://example.com/files/Download", RestMethod: "POST", RestPath: "/download"}},
		Backends:       []upstream.Backend{{Profile: p}},
		DefaultTimeout: 30 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	e := &publishEnv{log: &txLog{}, routes: &staticTable{}}
	e.routes.t.Store(routing.NewTable(1, []*routing.Service{svc}, nil))
	client := upstream.NewClient()
	t.Cleanup(client.Close)
	e.srv = httptest.NewServer(httpx.Correlation(New(Config{Routes: e.routes, Recorder: e.log,
		Backends:     SelectedBackends{Client: client, Selector: upstream.NewSelector(nil, nil)},
		MaxPayloadMB: func() int { return maxMB }})))
	t.Cleanup(e.srv.Close)
	return e
}

// TestPublishAttachmentsFromPython: a 5 MB file answered as an MTOM/XOP
// package (binary part, xop:Include) and as SOAP with Attachments built by
// Python's email library (base64 part, href="cid:") reaches the client in
// the base64Binary field, byte for byte, within max_payload_mb 8; with 4
// the same answer is 413 S2R-RUN-0413.
func TestPublishAttachmentsFromPython(t *testing.T) {
	needPython(t, "email")
	const size = 5 << 20
	want := make([]byte, size)
	for i := range want {
		want[i] = byte(i % 251)
	}
	server := startPython(t, "testdata/mtom/server.py", strconv.Itoa(size))
	for _, kind := range []string{"mtom", "swa"} {
		t.Run(kind, func(t *testing.T) {
			e := filesEnv(t, server+"/"+kind, 8)
			res := e.call(t, "POST", "/publish/dev/files/download", "application/json", `{"name":"report.bin"}`, "att-"+kind)
			if res.status != http.StatusOK {
				t.Fatalf("download: %d %.300s", res.status, res.body)
			}
			var got struct {
				Name string `json:"name"`
				Data []byte `json:"data"` // base64 in JSON
			}
			if err := json.Unmarshal(res.body, &got); err != nil {
				t.Fatal(err)
			}
			if got.Name != "report.bin" || !bytes.Equal(got.Data, want) {
				t.Errorf("name %q, %d bytes of data (want %d, equal %v)", got.Name, len(got.Data), size, bytes.Equal(got.Data, want))
			}
			small := filesEnv(t, server+"/"+kind, 4)
			res = small.call(t, "POST", "/publish/dev/files/download", "application/json", `{"name":"report.bin"}`, "att-small-"+kind)
			if res.status != http.StatusRequestEntityTooLarge || res.err.Error.Code != "S2R-RUN-0413" {
				t.Errorf("over the limit: %d %s", res.status, res.body)
			}
		})
	}
}
