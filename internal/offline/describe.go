package offline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/s2r-project/s2r/internal/apierr"
)

// Describe renders err for a terminal: the server's code, message and
// details (file, line, reason, …) for an S2R error, the error's text
// otherwise.
func Describe(err error) string {
	e, ok := apierr.As(err)
	if !ok {
		return err.Error()
	}
	var b strings.Builder
	b.WriteString(e.Code + ": " + e.Message)
	keys := make([]string, 0, len(e.Details))
	for k := range e.Details {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %s: %v", k, e.Details[k])
	}
	return b.String()
}
