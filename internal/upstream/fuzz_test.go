package upstream

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// FuzzTraceParent feeds arbitrary incoming traceparent values: nothing
// panics, and the outbound header is always a valid version-00 value that
// keeps the incoming trace id when the input was valid.
func FuzzTraceParent(f *testing.F) {
	for _, s := range []string{
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"00-00000000000000000000000000000000-00f067aa0ba902b7-01",
		"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"", "00--", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ctx := WithTraceParent(context.Background(), in)
		h := http.Header{}
		setTrace(ctx, h)
		out := h.Get(TraceParentHeader)
		traceID, _, ok := parseTraceParent(out)
		if !ok {
			t.Fatalf("outbound traceparent %q is invalid (input %q)", out, in)
		}
		if inID, _, valid := parseTraceParent(in); valid && inID != traceID {
			t.Fatalf("trace id %s not propagated from %q", traceID, in)
		}
		if strings.ContainsAny(out, "\r\n") {
			t.Fatalf("header injection: %q", out)
		}
	})
}
