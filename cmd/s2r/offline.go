package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/offline"
	"github.com/s2r-project/s2r/internal/xsd"
)

// openapiCmd prints the OpenAPI document the server generates for an
// import of FILE (internal/offline), with no database and no network.
func openapiCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("openapi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: s2r openapi FILE [flags]   (FILE: a WSDL, or a ZIP of a WSDL and its XSDs)")
		fs.PrintDefaults()
	}
	var o offline.OpenAPIOptions
	fs.StringVar(&o.Direction, "direction", "publish", "direction of the service: publish, consume or gateway")
	fs.StringVar(&o.Environment, "environment", offline.DefaultEnvironment, "environment of the service")
	fs.StringVar(&o.ServiceKey, "service-key", "", "service key (default: derived from the WSDL service name)")
	fs.StringVar(&o.ServiceName, "service-name", "", "service name (default: the WSDL service name)")
	fs.StringVar(&o.WSDLService, "wsdl-service", "", "WSDL service to onboard (default: every service)")
	fs.StringVar(&o.WSDLPort, "wsdl-port", "", "WSDL port to onboard (default: one per SOAP port type)")
	fs.StringVar(&o.SOAPVersion, "soap-version", "", "SOAP version of the ports to onboard: 1.1 or 1.2")
	fs.StringVar(&o.PublicBaseURL, "public-base-url", "", "the server's S2R_PUBLIC_BASE_URL (default: a relative server URL)")
	root := fs.String("root", "", "path of the root WSDL inside a ZIP (default: chosen as the server chooses it)")
	allowFetch := fs.Bool("allow-fetch", false, "fetch http and https references (default: refused)")
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return usageError{err}
	}
	if len(files) != 1 {
		fs.Usage()
		return usageError{errors.New("openapi: give exactly one FILE")}
	}
	if err := o.Validate(); err != nil {
		return usageError{flagError("openapi", err)}
	}
	src := offline.Sources{RootPath: *root}
	if *allowFetch {
		src.Fetch = fetcher()
	}
	f, err := offline.ReadFile(files[0], src)
	if err != nil {
		return err
	}
	docs, err := offline.OpenAPI(ctx, f, o)
	if err != nil {
		return errors.New(offline.Describe(err))
	}
	if len(docs) > 1 {
		fmt.Fprintf(stderr, "s2r openapi: the import onboards %d services; printed %s (port %s); others:", len(docs), docs[0].ServiceKey, docs[0].WSDLPort)
		for _, d := range docs[1:] {
			fmt.Fprintf(stderr, " %s (port %s)", d.ServiceKey, d.WSDLPort)
		}
		fmt.Fprintln(stderr, "; choose one with -wsdl-port")
	}
	_, err = stdout.Write(docs[0].JSON)
	return err
}

// flagError rewrites an option error of the server, which names a JSON
// field, with the flag of that field.
func flagError(cmd string, err error) error {
	var field, reason string
	if e, ok := apierr.As(err); ok {
		field, _ = e.Details["field"].(string)
		reason, _ = e.Details["reason"].(string)
	}
	if field == "" || reason == "" {
		return fmt.Errorf("%s: %s", cmd, offline.Describe(err))
	}
	var flag strings.Builder
	for _, r := range field {
		if unicode.IsUpper(r) {
			flag.WriteByte('-')
		}
		flag.WriteRune(unicode.ToLower(r))
	}
	return fmt.Errorf("%s: -%s %s", cmd, flag.String(), reason)
}

// fetcher is the server's guarded fetcher with its default policy: the
// same refusals (loopback, link-local, cloud metadata) and limits.
func fetcher() xsd.Loader {
	f := fetch.New(fetch.Policy{MaxBytes: adminapi.MaxDocumentBytes, Timeout: adminapi.FetchTimeout})
	return xsd.URLLoader{Fetch: func(ctx context.Context, u string) ([]byte, error) {
		res, err := f.Get(ctx, u)
		if err != nil {
			return nil, err
		}
		return res.Body, nil
	}}
}

// Exit statuses of s2r drift.
const (
	driftUpToDate    = 0
	driftDetected    = 1
	driftBreaking    = 2
	driftInputFailed = 3
)

// driftCmd prints the drift report of NEW against OLD and exits with its
// status: 0 UP_TO_DATE, 1 DRIFT_DETECTED, 2 BREAKING_DRIFT, 3 when an
// input cannot be read or the command line is wrong.
func driftCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drift", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: s2r drift OLD NEW   (each a WSDL, or a ZIP of a WSDL and its XSDs)")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return exitStatus{driftInputFailed, err}
	}
	if len(files) != 2 {
		fs.Usage()
		return exitStatus{driftInputFailed, errors.New("drift: give OLD and NEW")}
	}
	var in [2]offline.File
	for i, name := range files {
		if in[i], err = offline.ReadFile(name, offline.Sources{}); err != nil {
			return exitStatus{driftInputFailed, err}
		}
	}
	rep, err := offline.Drift(ctx, in[0], in[1])
	if err != nil {
		return exitStatus{driftInputFailed, errors.New(offline.Describe(err))}
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return exitStatus{driftInputFailed, err}
	}
	if _, err := stdout.Write(append(b, '\n')); err != nil {
		return exitStatus{driftInputFailed, err}
	}
	switch rep.Status {
	case catalog.DriftDetected:
		return exitStatus{code: driftDetected}
	case catalog.BreakingDrift:
		return exitStatus{code: driftBreaking}
	}
	return nil
}

// parseInterspersed parses flags placed before, between or after the
// positional arguments and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}
