// Package browser drives the admin console in a real headless Chromium
// (Debian's chromium, through the DevTools protocol with chromedp) against
// a real `s2r serve` subprocess and a real SOAP backend on 127.0.0.1: the
// console as a newcomer meets it after `make run`.
//
// scripts/test.sh installs chromium (apt-get, as root) like PostgreSQL;
// without it the tests skip with a message, and fail when CI is set.
package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// devAdmin is the S2R_DEV_IDENTITY of the server: the browser's requests
// without identity headers act as this admin, as after `make run`.
const devAdmin = "admin@localhost"

// fixture is the server and browser shared by every test of the package.
type fixture struct {
	base     string          // http://127.0.0.1:port
	alloc    context.Context // chromedp allocator
	browser  context.Context // the first tab: tabs of tests derive from it
	cancel   func()
	proc     *serveproc.Proc
	bin      string // the s2r binary, for tests that need a server of their own
	rmBin    func() // removes the binary
	skip     string // why the browser tests cannot run here
	setupErr error
}

var (
	shared     fixture
	sharedOnce sync.Once
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.cancel != nil {
		shared.cancel()
	}
	if shared.proc != nil {
		shared.proc.Stop()
	}
	if shared.rmBin != nil {
		shared.rmBin()
	}
	os.Exit(code)
}

// setup returns the shared fixture, starting it on first use; it skips the
// test (fails under CI) when there is no chromium.
func setup(t *testing.T) *fixture {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests: chromium is not driven with -short")
	}
	sharedOnce.Do(func() { shared.start() })
	if shared.skip != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("browser tests: %s (CI is set, so this fails)", shared.skip)
		}
		t.Skipf("browser tests: %s", shared.skip)
	}
	if shared.setupErr != nil {
		t.Fatalf("browser tests: %v", shared.setupErr)
	}
	return &shared
}

// chromium finds Debian's chromium or another Chrome.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func (f *fixture) start() {
	exe := chromium()
	if exe == "" {
		f.skip = "chromium not found (scripts/test.sh installs it with apt-get install chromium when run as root)"
		return
	}
	dir, err := os.MkdirTemp("", "s2r-browser-")
	if err != nil {
		f.setupErr = err
		return
	}
	bin, rm, err := serveproc.Build()
	if err != nil {
		f.setupErr = err
		return
	}
	f.bin, f.rmBin = bin, rm
	// As `make run` does: on loopback with the development identity,
	// which the bootstrap list makes an admin.
	f.proc, f.setupErr = serveproc.Launch(bin, serveproc.Env(filepath.Join(dir, "data"), devAdmin, "S2R_DEV_IDENTITY="+devAdmin))
	if f.setupErr != nil {
		return
	}
	f.base = f.proc.Base
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(filepath.Join(dir, "chromium-profile")),
		chromedp.WindowSize(1280, 900),
	}
	f.alloc, f.cancel = chromedp.NewExecAllocator(context.Background(), opts...)
	// Start the browser once now, so the first test does not pay for it;
	// this first tab lives as long as the browser.
	ctx, _ := chromedp.NewContext(f.alloc)
	if err := chromedp.Do(ctx); err != nil {
		f.setupErr = fmt.Errorf("start %s: %w", exe, err)
	}
	f.browser = ctx
}

// serverLog is the end of the server's log, for failure reports.
func (f *fixture) serverLog() string {
	if f.proc == nil {
		return ""
	}
	return serveproc.Tail(f.proc.Log(), 4000)
}

// tab opens a browser tab. With a non-empty email every request of the tab
// carries the identity header, as the identity-aware ingress adds it.
// Uncaught JavaScript exceptions and console errors (CSP violations
// included; failed HTTP requests, which the tests cause on purpose, not)
// fail the test. The tab closes at cleanup.
func (f *fixture) tab(t *testing.T, email string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(f.browser)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var problems []string
	console := chromedp.Console(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range console {
			if err != nil {
				return
			}
			if (m.IsException() || m.Type == chromedp.ConsoleError) && m.Source != "network" {
				mu.Lock()
				problems = append(problems, m.String())
				mu.Unlock()
			}
		}
	}()
	if email != "" {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{
			Headers: network.Headers{"X-Idp-Authenticated-User-Email": email}}); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		cancel()
		<-done
		mu.Lock()
		for _, p := range problems {
			t.Errorf("browser console: %s", p)
		}
		mu.Unlock()
	})
	return ctx
}

// run runs browser actions and fails the test with what it was doing.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, actions...); err != nil {
		fail(t, ctx, what, err)
	}
}

// value runs one browser action that answers a value.
func value[T any](t *testing.T, ctx context.Context, what string, action chromedp.Action[T]) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, action)
	if err != nil {
		fail(t, ctx, what, err)
	}
	return v
}

func fail(t *testing.T, ctx context.Context, what string, err error) {
	t.Helper()
	hctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	text, _ := chromedp.Run(hctx, chromedp.Evaluate[string]("document.body.innerText"))
	t.Fatalf("%s: %v\npage text:\n%.4000s\ns2r log:\n%s", what, err, text, shared.serverLog())
}

// admin calls the admin API with an identity header (as the ingress would)
// and decodes the JSON answer into out.
func (f *fixture) admin(t *testing.T, email, method, path string, body any, wantStatus int, out any) {
	t.Helper()
	r := admintest.NewClient(t, f.base).DoJSON(method, "/admin/v1"+path, email, body).WantStatus(t, wantStatus)
	if out != nil {
		r.Decode(t, out)
	}
}

// textOf returns the text content of the first node matching a CSS selector.
func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return strings.TrimSpace(value(t, ctx, "read "+sel, chromedp.Evaluate[string](
		fmt.Sprintf("(document.querySelector(%q) || {}).textContent || ''", sel))))
}
