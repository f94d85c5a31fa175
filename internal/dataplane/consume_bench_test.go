package dataplane

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/tests/cputime"
	"github.com/s2r-project/s2r/internal/upstream"
)

// benchOrder returns a CreateOrder SOAP 1.1 request of about size bytes
// and the JSON of its order, which the REST backend of the benchmarks
// answers unchanged.
func benchOrder(size int) (soapReq, restJSON []byte) {
	var x, j strings.Builder
	x.WriteString(`<o:CreateOrder xmlns:o="urn:example:orders"><o:order><o:id>123456789</o:id><o:name>Grüße &amp; ✓</o:name>` +
		`<o:total>1234.56</o:total><o:paid>true</o:paid>`)
	j.WriteString(`{"order":{"id":123456789,"name":"Grüße & ✓","total":1234.56,"paid":true,"tags":[`)
	for i := 0; x.Len() < size-200; i++ {
		tag := fmt.Sprintf("tag number %06d of the order", i)
		fmt.Fprintf(&x, `<o:tags>%s</o:tags>`, tag)
		if i > 0 {
			j.WriteByte(',')
		}
		fmt.Fprintf(&j, `%q`, tag)
	}
	x.WriteString(`<o:note>n</o:note></o:order></o:CreateOrder>`)
	j.WriteString(`],"note":"n"}}`)
	return []byte(soap11(x.String())), []byte(j.String())
}

// inProcessREST is a Backends answering prepared JSON in process.
type inProcessREST struct{ answer []byte }

func (p inProcessREST) Do(_ context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error) {
	return &upstream.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: p.answer}, svc.DefaultBackend, nil
}

// BenchmarkConsumeHandler measures the consume handler with an in-process
// REST backend: envelope parsing, SOAP→JSON, the REST call's shaping,
// JSON→SOAP and the record, without any network.
func BenchmarkConsumeHandler(b *testing.B) {
	for _, size := range []int{1 << 10, 20 << 10} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			routes := &staticTable{}
			svc, err := routing.Compile(ordersSource(b, "http://127.0.0.1:1/api"))
			if err != nil {
				b.Fatal(err)
			}
			routes.t.Store(routing.NewTable(1, []*routing.Service{svc}, nil))
			soapReq, restJSON := benchOrder(size)
			h := httpx.Correlation(New(Config{Routes: routes, Recorder: NopRecorder{},
				Backends: inProcessREST{answer: restJSON}, MaxPayloadMB: func() int { return 10 }}))
			b.SetBytes(int64(len(soapReq)))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Report(b)()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/consume/dev/orders", bytes.NewReader(soapReq))
				req.Header.Set("Content-Type", "text/xml; charset=utf-8")
				req.Header.Set("SOAPAction", `"urn:example:orders:CreateOrder"`)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}

// BenchmarkConsumeLoopback compares a consume call through the dispatcher
// with a direct REST call to the same loopback backend, both over HTTP.
func BenchmarkConsumeLoopback(b *testing.B) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer backend.Close()
	for _, size := range []int{1 << 10, 20 << 10} {
		routes := &staticTable{}
		svc, err := routing.Compile(ordersSource(b, backend.URL+"/api"))
		if err != nil {
			b.Fatal(err)
		}
		routes.t.Store(routing.NewTable(1, []*routing.Service{svc}, nil))
		client := upstream.NewClient()
		srv := httptest.NewServer(httpx.Correlation(New(Config{Routes: routes, Recorder: NopRecorder{},
			Backends: SelectedBackends{Client: client, Selector: upstream.NewSelector(nil, nil)}, MaxPayloadMB: func() int { return 10 }})))
		soapReq, restJSON := benchOrder(size)
		b.Run(fmt.Sprintf("%dKB/direct", size>>10), func(b *testing.B) {
			loopbackCalls(b, backend.URL+"/api/orders", "application/json", restJSON)
		})
		b.Run(fmt.Sprintf("%dKB/consume", size>>10), func(b *testing.B) {
			loopbackCalls(b, srv.URL+"/consume/dev/orders", "text/xml; charset=utf-8", soapReq)
		})
		srv.Close()
		client.Close()
	}
}
