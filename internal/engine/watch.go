package engine

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"
)

// watchAfter is how long a request runs before the engine starts
// watching for its client going away. A request answered sooner (nearly
// all) costs no read: net/http instead starts a background read on every
// request. A longer one (a slow backend) gets the read, and its context
// is canceled when the client closes the connection, so the backend call
// is abandoned as on net/http.
const watchAfter = 20 * time.Millisecond

// watch is the client-gone watch of one request.
type watch struct {
	c      *conn
	mu     sync.Mutex
	timer  *time.Timer
	cancel context.CancelFunc
	active bool // the request is being served
	body   bool // its body was read to the end: the connection is free to read
	wanted bool // the timer fired before the body ended
	reader bool // the read goroutine runs
	done   chan struct{}
	// held is a byte the read returned: the start of the next request,
	// given to the read buffer first (connReader).
	held bool
	byte byte
	gone bool // the client closed the connection
}

// begin starts watching a request; bodyDone says it has no body to read.
func (w *watch) begin(c *conn, cancel context.CancelFunc, bodyDone bool) {
	w.mu.Lock()
	w.c, w.cancel, w.active, w.body, w.wanted = c, cancel, true, bodyDone, false
	if w.timer == nil {
		w.timer = time.AfterFunc(watchAfter, w.fire)
	} else {
		w.timer.Reset(watchAfter)
	}
	w.mu.Unlock()
}

// fire starts the read, or asks for it once the body has ended.
func (w *watch) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.active {
		return
	}
	if w.body {
		w.startLocked()
		return
	}
	w.wanted = true
}

// bodyDone notes that the request body was read to its end.
func (w *watch) bodyDone() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.body = true
	if w.active && w.wanted {
		w.startLocked()
	}
}

// startLocked reads one byte in the background unless the read buffer
// already holds the next request (pipelining: the client is there).
func (w *watch) startLocked() {
	if w.reader || w.held || w.c.br.Buffered() > 0 {
		return
	}
	w.reader, w.done = true, make(chan struct{})
	go w.read()
}

func (w *watch) read() {
	var b [1]byte
	n, err := w.c.rwc.Read(b[:])
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case n == 1:
		w.held, w.byte = true, b[0]
	case errors.Is(err, os.ErrDeadlineExceeded):
		// end() stopped the read: the request finished first.
	default:
		w.gone = true
		w.cancel()
	}
	w.reader = false
	close(w.done)
}

// end stops watching: the timer, and the read if it runs.
func (w *watch) end() {
	w.timer.Stop()
	w.mu.Lock()
	w.active = false
	reading, done := w.reader, w.done
	w.mu.Unlock()
	if reading {
		w.c.rwc.SetReadDeadline(time.Unix(1, 0))
		<-done
		w.c.rwc.SetReadDeadline(time.Time{})
	}
}
