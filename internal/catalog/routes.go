package catalog

import (
	"regexp"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
)

// RestMethods are the REST methods an operation can be served with.
var RestMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// maxRestPathLen bounds REST paths.
const maxRestPathLen = 512

var (
	pathSegment = regexp.MustCompile(`^[A-Za-z0-9._~\-]+$`)
	pathParam   = regexp.MustCompile(`^\{([A-Za-z_][A-Za-z0-9_.\-]*)\}$`)
)

// CheckRestPath checks a REST path: it starts with "/", has no empty, "."
// or ".." segment, and each segment is either literal (letters, digits,
// "._~-") or a whole-segment parameter {name} naming a top-level field of
// the request (shape; nil skips that check), each at most once. It returns
// the reasons it is not valid.
func CheckRestPath(path string, shape *Shape) []string {
	if !strings.HasPrefix(path, "/") {
		return []string{"must start with /"}
	}
	if len(path) > maxRestPathLen {
		return []string{"must be at most 512 characters"}
	}
	if path == "/" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, seg := range strings.Split(strings.TrimSuffix(path[1:], "/"), "/") {
		if m := pathParam.FindStringSubmatch(seg); m != nil {
			name := m[1]
			switch {
			case seen[name]:
				out = append(out, "path parameter {"+name+"} appears twice")
			case shape != nil && !(TopLevel(name) && shape.Has(name)):
				out = append(out, "path parameter {"+name+"} is not a top-level field of the request")
			}
			seen[name] = true
			continue
		}
		if seg == "" || seg == "." || seg == ".." || !pathSegment.MatchString(seg) {
			out = append(out, "segment "+quoteSeg(seg)+" is not allowed (letters, digits, ._~- or a whole {name})")
		}
	}
	return out
}

func quoteSeg(s string) string { return `"` + s + `"` }

// RouteKey returns the form of method and path under which two routes
// conflict: parameters are equivalent whatever their names, and a trailing
// slash is ignored. "POST /a/{id}/" and "POST /a/{x}" have the same key.
func RouteKey(method, path string) string {
	segs := strings.Split(strings.TrimSuffix(path, "/"), "/")
	for i, s := range segs {
		if pathParam.MatchString(s) {
			segs[i] = "{}"
		}
	}
	return method + " " + strings.Join(segs, "/")
}

// RouteConflicts returns, for every route key served by more than one of
// ops, the operation keys that share it, in operation order.
func RouteConflicts(ops []model.Operation) map[string][]string {
	by := map[string][]string{}
	var order []string
	for _, op := range ops {
		k := RouteKey(op.RestMethod, op.RestPath)
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], op.OperationKey)
	}
	out := map[string][]string{}
	for _, k := range order {
		if len(by[k]) > 1 {
			out[k] = by[k]
		}
	}
	return out
}
