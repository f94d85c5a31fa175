package engine

import (
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/net/http/httpguts"
)

// writeHeaders writes h sorted by name. A name that is not a token is
// skipped and CR or LF in a value becomes a space (no header injection),
// as net/http does.
func writeHeaders(out *writer, h http.Header) {
	var stack [16]string
	keys := stack[:0]
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !httpguts.ValidHeaderFieldName(k) { // http.TrailerPrefix keys too
			continue
		}
		for _, v := range h[k] {
			if strings.ContainsAny(v, "\r\n") {
				v = strings.Map(func(r rune) rune {
					if r == '\r' || r == '\n' {
						return ' '
					}
					return r
				}, v)
			}
			out.appendString(k)
			out.appendString(": ")
			out.appendString(strings.TrimSpace(v))
			out.appendString("\r\n")
		}
	}
}

// dateCache is the Date header of the current second.
type dateCache struct {
	unix int64
	text string
}

var date atomic.Pointer[dateCache]

// httpDate returns the Date header value, formatted once a second.
func httpDate() string {
	now := time.Now()
	if d := date.Load(); d != nil && d.unix == now.Unix() {
		return d.text
	}
	d := &dateCache{unix: now.Unix(), text: now.UTC().Format(http.TimeFormat)}
	date.Store(d)
	return d.text
}
