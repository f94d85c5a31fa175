package dataplane

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/routing"
)

// wrapSuccess shapes a converted JSON body by the service's
// envelopeWrapOverride (docs/decisions-catalog.md): nil returns data as is.
func wrapSuccess(w *routing.EnvelopeWrap, data []byte, cid, serviceKey, opKey string, now time.Time) []byte {
	if w == nil {
		return data
	}
	out := make([]byte, 0, len(data)+160)
	out = append(out, '{')
	out = appendJSONString(out, w.DataField)
	out = append(out, ':')
	out = append(out, data...)
	add := func(name, value string) {
		out = append(out, ',')
		out = appendJSONString(out, name)
		out = append(out, ':')
		out = appendJSONString(out, value)
	}
	if w.CorrelationID {
		add("correlationId", cid)
	}
	if w.ServiceKey {
		add("serviceKey", serviceKey)
	}
	if w.OperationKey {
		add("operationKey", opKey)
	}
	if w.Timestamp {
		add("timestamp", now.UTC().Format(time.RFC3339Nano))
	}
	return append(out, '}')
}

func appendJSONString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return append(dst, b...)
}

// errorBody renders e in the service's error shape: the SPEC 7.1 shape
// without an errorShapeOverride, else the template with its placeholders
// substituted.
func errorBody(shape *routing.ErrorShape, e *apierr.Error, cid string) []byte {
	if shape == nil {
		return apierr.MarshalJSONBody(e, cid)
	}
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	db, err := json.Marshal(details)
	if err != nil {
		db = []byte("{}")
	}
	r := strings.NewReplacer("${code}", e.Code, "${message}", e.Message,
		"${correlationId}", cid, "${status}", strconv.Itoa(e.Status()))
	return appendShape(nil, shape.Root, r, db)
}

func appendShape(dst []byte, n *routing.ShapeNode, r *strings.Replacer, details []byte) []byte {
	switch n.Kind {
	case routing.ShapeObject:
		dst = append(dst, '{')
		for i, m := range n.Object {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, m.Name)
			dst = append(dst, ':')
			dst = appendShape(dst, m.Value, r, details)
		}
		return append(dst, '}')
	case routing.ShapeArray:
		dst = append(dst, '[')
		for i, v := range n.Array {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendShape(dst, v, r, details)
		}
		return append(dst, ']')
	case routing.ShapeString:
		if n.Details {
			return append(dst, details...)
		}
		return appendJSONString(dst, r.Replace(n.Text))
	}
	return append(dst, n.Literal...)
}

// writeShapedError writes e with its registered status in the service's
// error shape and returns the body length.
func writeShapedError(w http.ResponseWriter, shape *routing.ErrorShape, e *apierr.Error, cid string) int {
	b := append(errorBody(shape, e, cid), '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	if e.Code == apierr.RunPayloadTooLarge {
		h.Set("Connection", "close")
	}
	apierr.SetRetryAfter(h, e)
	w.WriteHeader(e.Status())
	w.Write(b)
	return len(b)
}
