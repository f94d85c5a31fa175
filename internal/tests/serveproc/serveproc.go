// Package serveproc builds the s2r binary and runs `s2r serve` as a
// child process for the out-of-process test suites (internal/tests/e2e,
// security, resilience, interop and browser): it waits for the main
// listener's "listening" log line and keeps the process's whole log.
// Listening also serves tests that run serve in-process (cmd/s2r).
package serveproc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// maxLog bounds the log kept of one process.
const maxLog = 64 << 20

// Build builds cmd/s2r into a new temporary directory and returns the
// binary's path and a function that removes the directory.
func Build() (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "s2r-bin-")
	if err != nil {
		return "", nil, err
	}
	bin = filepath.Join(dir, "s2r")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/s2r-project/s2r/cmd/s2r")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("go build ./cmd/s2r: %w", err)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// Proc is one running `s2r serve`.
type Proc struct {
	// Base is the main listener's URL, http://127.0.0.1:port.
	Base string
	// Cmd is the process (tests kill it to simulate a crash).
	Cmd *exec.Cmd

	mu   sync.Mutex
	log  bytes.Buffer
	done chan struct{}
}

// Start runs `bin serve` with env (KEY=VALUE entries added to the test
// process's environment, later ones winning), waits up to 60 s for its
// main listener and stops it at the end of the test. It fails the test
// when the process exits first or never listens.
func Start(t testing.TB, bin string, env []string) *Proc {
	t.Helper()
	p, err := Launch(bin, env)
	if p != nil {
		t.Cleanup(p.Stop)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Launch is Start for a process that outlives one test (a fixture shared
// by a package's tests): the caller stops it. On an error after the
// process started, Launch has stopped it and the error quotes its log.
func Launch(bin string, env []string) (*Proc, error) {
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Proc{Cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go p.read(stderr, addr)
	select {
	case a, ok := <-addr:
		if !ok {
			p.Stop()
			return p, fmt.Errorf("s2r serve exited before listening:\n%s", p.Log())
		}
		p.Base = "http://" + a
		return p, nil
	case <-time.After(60 * time.Second):
		p.Stop()
		return p, fmt.Errorf("s2r serve did not report listening within 60s:\n%s", p.Log())
	}
}

// Listening reports whether line is serve's JSON log line announcing that
// a listener ("main", "admin") is bound, and to which address.
func Listening(line []byte) (listener, addr string, ok bool) {
	var l struct{ Msg, Listener, Addr string }
	if json.Unmarshal(line, &l) != nil || l.Msg != "listening" {
		return "", "", false
	}
	return l.Listener, l.Addr, true
}

// read keeps the log and reports the main listener's address.
func (p *Proc) read(r io.Reader, addr chan<- string) {
	defer close(p.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	sent := false
	for sc.Scan() {
		line := sc.Bytes()
		p.mu.Lock()
		if p.log.Len() < maxLog {
			p.log.Write(line)
			p.log.WriteByte('\n')
		}
		p.mu.Unlock()
		if !sent {
			if name, a, ok := Listening(line); ok && name == "main" {
				addr <- a
				sent = true
			}
		}
	}
	if !sent {
		close(addr)
	}
}

// Log returns the log so far (JSON lines on stderr).
func (p *Proc) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// Stop kills the process and waits for it and its log; it may be called
// more than once.
func (p *Proc) Stop() {
	_ = p.Cmd.Process.Kill()
	_ = p.Cmd.Wait()
	<-p.done
}

// Tail returns about the last n bytes of s, from a line start.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// Main is a suite's TestMain: it builds the binary into *bin, runs the
// tests and removes the binary.
func Main(m *testing.M, bin *string) {
	b, cleanup, err := Build()
	if err != nil {
		fmt.Fprintln(os.Stderr, "serveproc:", err)
		os.Exit(1)
	}
	*bin = b
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// RepoRoot is the module root.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}
