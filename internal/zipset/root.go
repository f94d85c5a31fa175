package zipset

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
)

// ErrNoRootWSDL is wrapped by FindRootWSDL errors.
var ErrNoRootWSDL = errors.New("no single root WSDL")

// maxListed bounds the candidates an error message lists.
const maxListed = 10

// FindRootWSDL picks the root WSDL of an archive read by Read. The rule:
// among the files whose name ends in ".wsdl" (any letter case), take those at
// the shallowest directory depth; exactly one must remain. When none or
// several remain, the error lists the candidates (sorted, at most ten) so
// the user can rename or remove the extra files.
func FindRootWSDL(files map[string][]byte) (string, error) {
	var wsdls []string
	for name := range files {
		if strings.EqualFold(path.Ext(name), ".wsdl") {
			wsdls = append(wsdls, name)
		}
	}
	if len(wsdls) == 0 {
		return "", fmt.Errorf("%w: the archive holds no .wsdl file (files: %s)", ErrNoRootWSDL, listNames(keys(files)))
	}
	minDepth := -1
	for _, n := range wsdls {
		if d := strings.Count(n, "/"); minDepth < 0 || d < minDepth {
			minDepth = d
		}
	}
	var top []string
	for _, n := range wsdls {
		if strings.Count(n, "/") == minDepth {
			top = append(top, n)
		}
	}
	if len(top) > 1 {
		return "", fmt.Errorf("%w: %d .wsdl files share the shallowest level, so the root is ambiguous; keep only the root WSDL there: %s",
			ErrNoRootWSDL, len(top), listNames(top))
	}
	return top[0], nil
}

func keys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// listNames renders sorted, quoted names, at most maxListed of them.
func listNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	sort.Strings(names)
	shown := names[:min(len(names), maxListed)]
	quoted := make([]string, len(shown))
	for i, n := range shown {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	s := strings.Join(quoted, ", ")
	if len(names) > maxListed {
		s += fmt.Sprintf(" and %d more", len(names)-maxListed)
	}
	return s
}
