package dataplane

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/tests/cputime"
	"github.com/s2r-project/s2r/internal/upstream"
)

// echoItems returns an Echo request of about size bytes of JSON.
func echoItems(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < size-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"sku":"SKU-%06d","qty":%d,"price":%d.%02d,"note":"item number %d of the order"}`, i, i%7+1, i%500, i%100, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// echoAnswer turns an Echo request envelope into its response envelope,
// as the backend of the benchmarks does.
func echoAnswer(req []byte) []byte {
	out := bytes.Replace(req, []byte("<ns1:Echo>"), []byte("<ns1:EchoResponse>"), 1)
	return bytes.Replace(out, []byte("</ns1:Echo>"), []byte("</ns1:EchoResponse>"), 1)
}

// inProcess is a Backends answering a prepared envelope in process: no
// network and no backend work, so a benchmark measures the publish
// handler's own work.
type inProcess struct{ answer []byte }

func (p inProcess) Do(_ context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error) {
	return &upstream.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/xml"}}, Body: p.answer}, svc.DefaultBackend, nil
}

// BenchmarkPublishHandler measures the publish handler with an in-process
// backend: request validation, envelope, response conversion, response
// validation and the record, without any network.
func BenchmarkPublishHandler(b *testing.B) {
	for _, size := range []int{1 << 10, 20 << 10} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			env := &publishEnv{log: &txLog{}, routes: &staticTable{}, backend: newSOAPBackend(b)}
			env.setSource(b, nil)
			body := echoItems(size)
			h := httpx.Correlation(New(Config{Routes: env.routes, Recorder: NopRecorder{},
				Backends: inProcess{answer: echoAnswer(echoEnvelope(b, env, body))}, MaxPayloadMB: func() int { return 10 }}))
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Report(b)()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/publish/dev/calc/echo", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}

// BenchmarkPublishLoopback compares a publish call through the dispatcher
// with a direct SOAP call to the same loopback backend, both over HTTP.
func BenchmarkPublishLoopback(b *testing.B) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Write(echoAnswer(req))
	}))
	defer backend.Close()
	for _, size := range []int{1 << 10, 20 << 10} {
		env := &publishEnv{log: &txLog{}, routes: &staticTable{}, backend: &soapBackend{srv: backend}}
		env.setSource(b, nil)
		client := upstream.NewClient()
		srv := httptest.NewServer(httpx.Correlation(New(Config{Routes: env.routes, Recorder: NopRecorder{},
			Backends: SelectedBackends{Client: client, Selector: upstream.NewSelector(nil, nil)}, MaxPayloadMB: func() int { return 10 }})))
		body := echoItems(size)
		envelope := echoEnvelope(b, env, body)
		b.Run(fmt.Sprintf("%dKB/direct", size>>10), func(b *testing.B) {
			loopbackCalls(b, backend.URL+"/calc", "text/xml; charset=utf-8", envelope)
		})
		b.Run(fmt.Sprintf("%dKB/publish", size>>10), func(b *testing.B) {
			loopbackCalls(b, srv.URL+"/publish/dev/calc/echo", "application/json", body)
		})
		srv.Close()
		client.Close()
	}
}

// echoEnvelope converts body with the service's plan, as publish does.
func echoEnvelope(b testing.TB, env *publishEnv, body []byte) []byte {
	var got []byte
	h := New(Config{Routes: env.routes, Backends: captureBackends{&got}})
	req := httptest.NewRequest("POST", "/publish/dev/calc/echo", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(httptest.NewRecorder(), req)
	if got == nil {
		b.Fatal("no envelope captured")
	}
	return got
}

type captureBackends struct{ dst *[]byte }

func (c captureBackends) Do(_ context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error) {
	*c.dst = append([]byte(nil), req.Body...)
	return &upstream.Response{StatusCode: 200, Body: echoAnswer(req.Body)}, svc.DefaultBackend, nil
}

func loopbackCalls(b *testing.B, url, ct string, body []byte) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer client.CloseIdleConnections()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	defer cputime.Report(b)()
	for b.Loop() {
		resp, err := client.Post(url, ct, bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}
