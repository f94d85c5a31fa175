package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/s2r-project/s2r/internal/admin/bundle"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// bundleCmd runs `s2r bundle export` and `s2r bundle apply`
// (docs/bundles.md): exit 0 on success, 1 when the server refused, 2 on
// usage errors.
func bundleCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "apply" {
		return bundleApplyCmd(ctx, args[1:], getenv, stdout, stderr)
	}
	if len(args) == 0 || args[0] != "export" {
		fmt.Fprintln(stderr, "Usage: s2r bundle export --server URL [--environment E] [--service K] [-o FILE] [--as EMAIL]")
		fmt.Fprintln(stderr, "       s2r bundle apply --server URL -f FILE [--dry-run] [--output text|json] [--as EMAIL]")
		return usageError{errors.New("bundle: the subcommand is export or apply")}
	}
	fs := flag.NewFlagSet("bundle export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var envs, keys stringList
	server := fs.String("server", "", "base URL of the s2r admin API, e.g. https://s2r.example.com (required)")
	fs.Var(&envs, "environment", "export the services of this environment (repeatable; default: every environment)")
	fs.Var(&keys, "service", "export the services with this key (repeatable; default: every key)")
	out := fs.String("o", "", "write the bundle to this file (default: standard output)")
	format := fs.String("format", "", "yaml or json (default: json for a -o FILE ending in .json, yaml otherwise)")
	as := fs.String("as", "", "the caller's e-mail, sent as X-Idp-Authenticated-User-Email (default: $S2R_IDENTITY)")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	req := bundle.ExportRequest{Server: *server, Environments: envs, ServiceKeys: keys, Identity: *as}
	if req.Identity == "" {
		req.Identity = getenv("S2R_IDENTITY")
	}
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("bundle export: unexpected argument %q", fs.Arg(0))}
	case req.Server == "":
		return usageError{errors.New("bundle export: --server is required")}
	case !httpURL(req.Server):
		return usageError{errors.New("bundle export: --server must be an http or https URL")}
	case req.Identity == "":
		return usageError{errors.New("bundle export: give the caller's e-mail with --as or S2R_IDENTITY")}
	}
	switch *format {
	case "":
		req.YAML = strings.ToLower(filepath.Ext(*out)) != ".json"
	case "yaml", "json":
		req.YAML = *format == "yaml"
	default:
		return usageError{errors.New("bundle export: --format must be yaml or json")}
	}
	b, err := bundle.Export(ctx, req)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = stdout.Write(b)
		return err
	}
	return os.WriteFile(*out, b, 0o600)
}

// httpURL reports whether s is an absolute http or https URL.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
