package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
)

// readyWatcher passes serve's log through to out and learns from it where
// the server is: the main listener's "listening" line and the "console"
// line (the listener serving the console and the admin API).
type readyWatcher struct {
	out      io.Writer
	mu       sync.Mutex
	partial  []byte
	main     chan string // the main listener's host:port
	console  chan string // the console URL
	seenMain bool
	seenCons bool
}

func newReadyWatcher(out io.Writer) *readyWatcher {
	return &readyWatcher{out: out, main: make(chan string, 1), console: make(chan string, 1)}
}

// logLine is the part of a log line the watcher reads.
type logLine struct {
	Msg      string `json:"msg"`
	Listener string `json:"listener"`
	Addr     string `json:"addr"`
	URL      string `json:"url"`
}

func (w *readyWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.read(w.partial[:i])
		w.partial = w.partial[i+1:]
	}
	w.mu.Unlock()
	return w.out.Write(p)
}

func (w *readyWatcher) read(line []byte) {
	if w.seenMain && w.seenCons {
		return
	}
	var l logLine
	if json.Unmarshal(line, &l) != nil {
		return
	}
	switch {
	case l.Msg == "listening" && l.Listener == "main" && !w.seenMain:
		w.seenMain = true
		w.main <- l.Addr
	case l.Msg == "console" && l.URL != "" && !w.seenCons:
		w.seenCons = true
		w.console <- l.URL
	}
}

// wait answers the main listener's host:port and the console URL once both
// are logged; ok is false when ctx ends first.
func (w *readyWatcher) wait(ctx context.Context) (mainAddr, consoleURL string, ok bool) {
	for _, c := range []struct {
		ch  chan string
		dst *string
	}{{w.main, &mainAddr}, {w.console, &consoleURL}} {
		select {
		case *c.dst = <-c.ch:
		case <-ctx.Done():
			return "", "", false
		}
	}
	return mainAddr, consoleURL, true
}
