// Command s2r is the SOAP⇄REST conversion gateway: `s2r serve` runs the
// runtime, admin and ingest surfaces; `s2r migrate` applies database
// migrations; `s2r version` prints the build version.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Set with -ldflags "-X main.version=... -X main.commit=...".
var (
	version = "dev"
	commit  = "dev"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if reportable(err) {
		fmt.Fprintln(os.Stderr, "s2r:", err)
	}
	os.Exit(exitCode(err))
}
