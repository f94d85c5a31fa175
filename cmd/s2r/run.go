package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/s2r-project/s2r/internal/config"
)

// usageError is a configuration or command-line error: exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitStatus ends the program with code; err, when not nil, is printed.
// Commands whose exit status carries a result (s2r drift) return it.
type exitStatus struct {
	code int
	err  error
}

func (e exitStatus) Error() string {
	if e.err == nil {
		return "exit status " + strconv.Itoa(e.code)
	}
	return e.err.Error()
}
func (e exitStatus) Unwrap() error { return e.err }

func exitCode(err error) int {
	var ue usageError
	var es exitStatus
	switch {
	case err == nil:
		return 0
	case errors.As(err, &es):
		return es.code
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

// reportable reports whether err has a message to print.
func reportable(err error) bool {
	var es exitStatus
	return err != nil && (!errors.As(err, &es) || es.err != nil)
}

// run is the whole program with its inputs made explicit, so tests can run
// it in-process.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "help"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, getenv, stderr)
	case "demo":
		return runDemo(ctx, args, getenv, stdout, stderr)
	case "migrate":
		return migrate(ctx, getenv, stdout, stderr)
	case "openapi":
		return openapiCmd(ctx, args, stdout, stderr)
	case "drift":
		return driftCmd(ctx, args, stdout, stderr)
	case "bundle":
		return bundleCmd(ctx, args, getenv, stdout, stderr)
	case "loadgen":
		return loadgenCmd(ctx, args, getenv, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "s2r %s (commit %s)\n", version, commit)
		return nil
	case "help", "-h", "--help", "-help":
		usage(stdout)
		return nil
	}
	usage(stderr)
	return usageError{fmt.Errorf("unknown command %q", cmd)}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `s2r: SOAP/REST protocol conversion gateway

Usage:
  s2r serve     run the runtime, admin and ingest surfaces
  s2r demo      serve with two sample backends onboarded (publish/demo/calculator, consume/demo/quotes)
                and print the commands that try them; listens on 127.0.0.1:8080 as admin@localhost by default
  s2r migrate   apply database migrations and exit
  s2r openapi   print the OpenAPI document the server generates for a WSDL or ZIP, offline (-h for flags)
  s2r drift     compare two imports of a WSDL as the server does, offline: exit 0 up to date,
                1 drift, 2 breaking drift, 3 unreadable input
  s2r bundle    configuration as code: s2r bundle export --server URL exports services as a bundle,
                s2r bundle apply --server URL -f FILE [--dry-run] applies one (-h for flags)
  s2r loadgen   replay generated load-balancer and gateway traffic to a running s2r's ingest API (-h for flags)
  s2r version   print the version
  s2r help      print this help

Environment:
`)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, v := range config.Variables() {
		def := v.Default
		if def == "" {
			def = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Name, def, v.Meaning)
	}
	tw.Flush()
}

// loadConfig reads the configuration; errors are usage errors (exit 2).
func loadConfig(getenv func(string) string) (config.Config, error) {
	cfg, err := config.FromEnv(getenv)
	if err != nil {
		return config.Config{}, usageError{err}
	}
	return cfg, nil
}
