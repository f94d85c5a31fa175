package httpx

import (
	"errors"
	"io"
	"net/http"

	"github.com/s2r-project/s2r/internal/apierr"
)

// DefaultMaxPayloadMB is the max_payload_mb setting's default (DESIGN 6.6).
const DefaultMaxPayloadMB = 10

// MaxPayloadFunc returns the current max_payload_mb; it is read per request
// so a settings change applies without restart. Values < 1 mean the default.
type MaxPayloadFunc func() int

func (f MaxPayloadFunc) mb() int {
	if f == nil {
		return DefaultMaxPayloadMB
	}
	if v := f(); v >= 1 {
		return v
	}
	return DefaultMaxPayloadMB
}

// LimitBody bounds request bodies to max_payload_mb. A Content-Length over
// the limit is refused at once with 413 (code, e.g. S2R-RUN-0413) and
// details.maxPayloadMb; a body that grows past the limit while being read
// makes Read return that *apierr.Error, so a handler that returns the read
// error renders the same 413. Bodies are never read ahead here.
func LimitBody(code string, maxMB MaxPayloadFunc) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mb := maxMB.mb()
			limit := int64(mb) << 20
			if r.ContentLength > limit {
				// Do not keep the connection to drain a huge body.
				w.Header().Set("Connection", "close")
				apierr.Render(w, r, apierr.PayloadTooLarge(code, mb), code)
				return
			}
			if r.Body != nil && r.Body != http.NoBody {
				r.Body = &limitedBody{rc: r.Body, left: limit, err: apierr.PayloadTooLarge(code, mb)}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// limitedBody returns err once more than the limit has been read. It reads
// one byte past the limit to tell "exactly at the limit" from "over".
type limitedBody struct {
	rc   io.ReadCloser
	left int64 // bytes still allowed
	err  *apierr.Error
	hit  bool
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.hit {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.rc.Read(p)
	if int64(n) > l.left {
		l.hit = true
		n = int(l.left)
		l.left = 0
		return n, l.err
	}
	l.left -= int64(n)
	return n, err
}

func (l *limitedBody) Close() error { return l.rc.Close() }

// ReadBody reads the whole request body (already bounded by LimitBody). It
// returns the 413 *apierr.Error when the body is over the limit, and
// 400 S2R-VAL-0400 when the client stops sending midway.
func ReadBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) {
			return nil, ae
		}
		return nil, apierr.Wrap(apierr.ValBadRequest, err, "could not read the request body")
	}
	return b, nil
}
