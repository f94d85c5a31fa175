package bundle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// ApplyRequest is what `s2r bundle apply` asks a server to do.
type ApplyRequest struct {
	// Server is the base URL of the s2r admin listener.
	Server string
	// Bundle is the bundle's text, JSON or YAML.
	Bundle []byte
	// YAML says the bundle is YAML.
	YAML   bool
	DryRun bool
	// Identity is the caller's e-mail, sent as X-Idp-Authenticated-User-Email.
	Identity string
	// Client sends the request; nil uses http.DefaultClient.
	Client *http.Client
}

// Apply posts the bundle to POST /admin/v1/bundle:apply and returns the
// server's answer. A server that answers anything but 200 is a
// *RefusedError.
func Apply(ctx context.Context, req ApplyRequest) (ApplyResult, error) {
	u, err := serverURL(req.Server, "/bundle:apply")
	if err != nil {
		return ApplyResult{}, err
	}
	u.RawQuery = url.Values{"dryRun": {fmt.Sprint(req.DryRun)}}.Encode()
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(req.Bundle))
	if err != nil {
		return ApplyResult{}, fmt.Errorf("bundle: %w", err)
	}
	r.Header.Set("Accept", "application/json")
	r.Header.Set("Content-Type", "application/json")
	if req.YAML {
		r.Header.Set("Content-Type", "application/yaml")
	}
	body, err := send(req.Client, r, req.Identity)
	if err != nil {
		return ApplyResult{}, err
	}
	var res ApplyResult
	if err := json.Unmarshal(body, &res); err != nil {
		return ApplyResult{}, fmt.Errorf("bundle: the answer is not an apply result: %w", err)
	}
	return res, nil
}

// WriteDiff writes res as a readable diff, one line per change ("+"
// create, "~" update with its fields, "=" unchanged), then the missing
// secrets; for a pull request comment.
func WriteDiff(w io.Writer, res ApplyResult) error {
	var b strings.Builder
	if res.DryRun {
		b.WriteString("Dry run: nothing was written.\n")
	}
	marks := map[string]string{ActionCreate: "+", ActionUpdate: "~", ActionUnchanged: "="}
	for _, c := range res.Changes {
		what := c.Kind
		if c.Name != "" {
			what += " " + c.Name
		}
		fmt.Fprintf(&b, "%s %s %s/%s/%s %s", marks[c.Action], c.Action, c.Direction, c.Environment, c.ServiceKey, what)
		if len(c.Fields) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(c.Fields, ", "))
		}
		b.WriteByte('\n')
	}
	counts := map[string]int{}
	for _, c := range res.Changes {
		counts[c.Action]++
	}
	fmt.Fprintf(&b, "%d create, %d update, %d unchanged.\n", counts[ActionCreate], counts[ActionUpdate], counts[ActionUnchanged])
	if len(res.MissingSecrets) > 0 {
		b.WriteString("Missing secrets (marked set in the bundle, not held by the server):\n")
		for _, m := range res.MissingSecrets {
			b.WriteString("! " + m + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
