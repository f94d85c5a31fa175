package loopback

import (
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// The two parts of a HeldAnswer.
const (
	HeldFirst = "<first/>"
	HeldLast  = "<last/>"
)

// HeldAnswer is a backend answer of unknown length in two parts: Write
// sends HeldFirst and flushes it, then holds the rest until Release. A
// proxy that streams lets the client read HeldFirst meanwhile; one that
// buffers does not (CheckStreamed).
type HeldAnswer struct {
	release chan struct{}
	once    sync.Once
}

// NewHeldAnswer returns a held answer; call Release (or CheckStreamed)
// before closing the server whose handler writes it.
func NewHeldAnswer() *HeldAnswer { return &HeldAnswer{release: make(chan struct{})} }

// Release lets every Write finish; it may be called more than once.
func (h *HeldAnswer) Release() { h.once.Do(func() { close(h.release) }) }

// Write writes the answer to w, holding HeldLast until Release.
func (h *HeldAnswer) Write(w http.ResponseWriter) {
	_, _ = io.WriteString(w, HeldFirst)
	w.(http.Flusher).Flush()
	<-h.release
	_, _ = io.WriteString(w, HeldLast)
}

// CheckStreamed fails the test unless the answer reaches the client as it
// arrives: call, run in its own goroutine, sends the request through the
// proxy and returns the response with the first len(HeldFirst) bytes of
// its body read; they must be HeldFirst within the given time, while the
// backend still holds the rest, and HeldLast must follow once released.
// It releases h before it returns.
func (h *HeldAnswer) CheckStreamed(t testing.TB, within time.Duration, call func() (*http.Response, []byte, error)) {
	t.Helper()
	defer h.Release()
	type answer struct {
		resp  *http.Response
		first []byte
		err   error
	}
	got := make(chan answer, 1)
	go func() {
		resp, first, err := call()
		got <- answer{resp, first, err}
	}()
	var a answer
	select {
	case a = <-got:
	case <-time.After(within):
		h.Release()
		if a = <-got; a.resp != nil {
			a.resp.Body.Close()
		}
		t.Fatal("the head and first bytes did not reach the client while the backend held the rest")
	}
	if a.err != nil || string(a.first) != HeldFirst {
		if a.resp != nil {
			a.resp.Body.Close()
		}
		t.Fatalf("first bytes %q, %v", a.first, a.err)
	}
	defer a.resp.Body.Close()
	h.Release()
	rest, err := io.ReadAll(a.resp.Body)
	if err != nil || string(rest) != HeldLast {
		t.Fatalf("rest %q, %v", rest, err)
	}
}

// ReadFirst reads the first len(HeldFirst) bytes of resp's body, for the
// call of CheckStreamed.
func ReadFirst(resp *http.Response) ([]byte, error) {
	first := make([]byte, len(HeldFirst))
	_, err := io.ReadFull(resp.Body, first)
	return first, err
}
