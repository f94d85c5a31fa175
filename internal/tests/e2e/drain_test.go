package e2e

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// TestGracefulDrain sends SIGTERM to `s2r serve` while a publish call
// waits on a slow backend: the call completes with its answer, the
// process exits 0, and the listener accepts nothing afterwards (the
// main listener's engine drains as net/http's Shutdown did).
func TestGracefulDrain(t *testing.T) {
	corpusDir(t)
	s := startServer(t, nil)
	var slow atomic.Bool
	inBackend := make(chan struct{})
	var once sync.Once
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if slow.Load() {
			once.Do(func() { close(inBackend) })
			time.Sleep(800 * time.Millisecond)
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		io.WriteString(w, envelope11(`<t:AddResponse xmlns:t="http://tempuri.org/"><AddResult>5</AddResult></t:AddResponse>`))
	}))
	t.Cleanup(be.Close)
	s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "calc", "", be.URL)
	s.settledCall(t, "calc", "add", `{"intA": 2, "intB": 3}`).WantStatus(t, 200)

	slow.Store(true)
	answer := make(chan resp, 1)
	go func() {
		answer <- s.api.For(t).DoJSON("POST", "/publish/dev/calc/add", "", `{"intA": 2, "intB": 3}`)
	}()
	<-inBackend
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Process.Wait, not Cmd.Wait: serveproc still reads the log pipes.
	exited := make(chan error, 1)
	go func() {
		st, err := s.cmd.Process.Wait()
		if err == nil && !st.Success() {
			err = errors.New(st.String())
		}
		exited <- err
	}()
	select {
	case r := <-answer:
		if r.Status != 200 || !strings.Contains(string(r.Body), "5") {
			t.Fatalf("in-flight call during shutdown: %d %s", r.Status, r.Body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the in-flight call was not answered")
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("s2r serve after SIGTERM: %v\n%s", err, serveproc.Tail(s.proc.Log(), 2000))
		}
	case <-time.After(25 * time.Second):
		t.Fatal("s2r serve did not exit after SIGTERM")
	}
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(s.base, "http://"), time.Second); err == nil {
		c.Close()
		t.Fatal("the listener still accepts connections after the drain")
	}
}
