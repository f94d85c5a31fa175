package dataplane

import (
	"context"
	"strings"
)

// Target is what the URL of a runtime request names.
type Target struct {
	Direction   Direction
	Environment string
	ServiceKey  string // "" when the path stops after the environment
	Rest        string // remaining path after the service key, "" or starting with "/"
}

// parseTarget splits /{direction}/{environment}[/{serviceKey}[/rest]]. It
// fails when the direction is missing or unknown or the environment
// segment is missing or empty (e.g. "/publish/" alone).
func parseTarget(path string) (Target, bool) {
	p, ok := strings.CutPrefix(path, "/")
	if !ok {
		return Target{}, false
	}
	dirSeg, p, _ := strings.Cut(p, "/")
	dir, ok := ParseDirection(dirSeg)
	if !ok {
		return Target{}, false
	}
	env, p, _ := strings.Cut(p, "/")
	if env == "" {
		return Target{}, false
	}
	svc, rest, hasRest := strings.Cut(p, "/")
	t := Target{Direction: dir, Environment: env, ServiceKey: svc}
	if hasRest {
		t.Rest = "/" + rest
	}
	return t, true
}

type targetKey struct{}

func withTarget(ctx context.Context, t Target) context.Context {
	return context.WithValue(ctx, targetKey{}, t)
}

func targetFrom(ctx context.Context) Target {
	t, _ := ctx.Value(targetKey{}).(Target)
	return t
}
