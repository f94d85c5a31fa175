package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/s2r-project/s2r/internal/admin/bundle"
)

// bundleApplyCmd runs `s2r bundle apply`: it posts the bundle of -f FILE
// to the server and prints the changes as a readable diff (or the
// server's JSON answer): exit 0 on success, 1 when the server refused, 2
// on usage errors.
func bundleApplyCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bundle apply", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "", "base URL of the s2r admin API, e.g. https://s2r.example.com (required)")
	file := fs.String("f", "", "the bundle to apply, JSON or YAML (required; - reads standard input)")
	dry := fs.Bool("dry-run", false, "answer what would change, write nothing (the reader role suffices)")
	output := fs.String("output", "text", "text (a readable diff) or json (the server's answer)")
	as := fs.String("as", "", "the caller's e-mail, sent as X-Idp-Authenticated-User-Email (default: $S2R_IDENTITY)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	req := bundle.ApplyRequest{Server: *server, DryRun: *dry, Identity: *as}
	if req.Identity == "" {
		req.Identity = getenv("S2R_IDENTITY")
	}
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("bundle apply: unexpected argument %q", fs.Arg(0))}
	case req.Server == "":
		return usageError{errors.New("bundle apply: --server is required")}
	case !httpURL(req.Server):
		return usageError{errors.New("bundle apply: --server must be an http or https URL")}
	case *file == "":
		return usageError{errors.New("bundle apply: -f FILE is required")}
	case *output != "text" && *output != "json":
		return usageError{errors.New("bundle apply: --output must be text or json")}
	case req.Identity == "":
		return usageError{errors.New("bundle apply: give the caller's e-mail with --as or S2R_IDENTITY")}
	}
	data, err := readBundleFile(*file)
	if err != nil {
		return usageError{fmt.Errorf("bundle apply: %w", err)}
	}
	req.Bundle = data
	ext := strings.ToLower(filepath.Ext(*file))
	req.YAML = ext == ".yaml" || ext == ".yml" || (ext != ".json" && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")))
	res, err := bundle.Apply(ctx, req)
	if err != nil {
		return err
	}
	if *output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return bundle.WriteDiff(stdout, res)
}

// readBundleFile reads the bundle file, or standard input for "-".
func readBundleFile(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(io.LimitReader(os.Stdin, bundle.MaxApplyBytes+1))
	}
	return os.ReadFile(name)
}
