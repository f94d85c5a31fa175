package upstream

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/s2r-project/s2r/internal/correlation"
)

// TraceParentHeader is the W3C trace context header.
const TraceParentHeader = "traceparent"

type traceKey struct{}

// WithTraceParent returns ctx carrying the incoming traceparent header
// value; an invalid value is ignored.
func WithTraceParent(ctx context.Context, header string) context.Context {
	if _, _, ok := parseTraceParent(header); !ok {
		return ctx
	}
	return context.WithValue(ctx, traceKey{}, strings.ToLower(strings.TrimSpace(header)))
}

// TraceParent returns the traceparent carried by ctx, or "".
func TraceParent(ctx context.Context) string {
	s, _ := ctx.Value(traceKey{}).(string)
	return s
}

// setTrace sets the outbound traceparent (the incoming trace id with a
// new span id, or a new trace) and the correlation id.
func setTrace(ctx context.Context, h http.Header) {
	traceID, flags, ok := parseTraceParent(TraceParent(ctx))
	if !ok {
		traceID, flags = randomHex(16), "01"
	}
	h.Set(TraceParentHeader, "00-"+traceID+"-"+randomHex(8)+"-"+flags)
	if id := correlation.ID(ctx); id != "" && h.Get(correlation.Header) == "" {
		h.Set(correlation.Header, id)
	}
}

// parseTraceParent checks a version-00 traceparent and returns its trace
// id and flags.
func parseTraceParent(v string) (traceID, flags string, ok bool) {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(v)), "-")
	if len(parts) != 4 || parts[0] != "00" || len(parts[1]) != 32 || len(parts[2]) != 16 || len(parts[3]) != 2 {
		return "", "", false
	}
	for _, p := range parts[1:] {
		if _, err := hex.DecodeString(p); err != nil {
			return "", "", false
		}
	}
	if strings.Trim(parts[1], "0") == "" || strings.Trim(parts[2], "0") == "" {
		return "", "", false
	}
	return parts[1], parts[3], true
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
