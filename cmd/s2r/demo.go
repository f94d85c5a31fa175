package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/s2r-project/s2r/internal/config"
	"github.com/s2r-project/s2r/internal/demo"
)

// Defaults of `s2r demo` for variables that are not set: those of
// `make run` (DESIGN 10.4).
const (
	demoListenAddr = "127.0.0.1:8080"
	demoIdentity   = "admin@localhost"
)

// runDemo runs `s2r serve` with the two sample backends, onboards and
// activates publish/demo/calculator and consume/demo/quotes through the
// admin API, prints the commands that try them and serves until ctx ends.
func runDemo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return usageError{fmt.Errorf("demo takes no arguments (configuration comes from the environment, as for serve)")}
	}
	env, identity := demoEnv(getenv)
	backends, err := demo.Listen()
	if err != nil {
		return fmt.Errorf("demo backends: %w", err)
	}
	watch := newReadyWatcher(stderr)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return backends.Run(gctx) })
	g.Go(func() error { return serve(gctx, env, watch) })
	g.Go(func() error {
		mainAddr, consoleURL, ok := watch.wait(gctx)
		if !ok {
			return nil // serve stopped (its error is the group's) or ctx ended
		}
		links := demo.Links{Console: consoleURL, Runtime: listenerURL(mainAddr), Identity: identity}
		admin := demo.Admin{BaseURL: strings.TrimSuffix(consoleURL, "/console/")}
		if err := admin.Onboard(gctx, backends); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		// The admin API answered once the runtime served each change, so
		// this checks the services once, without waiting.
		if err := demo.CheckServed(gctx, links.Runtime); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		return demo.WriteInstructions(stdout, links, backends)
	})
	return g.Wait()
}

// demoEnv is getenv with the defaults of `make run` for the listener and
// the development identity (also the bootstrap admin), and that identity.
// The log level is info unless debug is asked for: the demo learns the
// bound addresses from serve's "listening" and "console" lines.
func demoEnv(getenv func(string) string) (func(string) string, string) {
	identity := getenv(config.EnvDevIdentity)
	if identity == "" {
		identity = demoIdentity
	}
	defaults := map[string]string{
		config.EnvListenAddr:      demoListenAddr,
		config.EnvDevIdentity:     identity,
		config.EnvBootstrapAdmins: identity,
	}
	return func(k string) string {
		v := getenv(k)
		if k == config.EnvLogLevel && v != "debug" {
			// The demo finds the listeners in serve's info lines.
			return "info"
		}
		if v != "" {
			return v
		}
		return defaults[k]
	}, identity
}
