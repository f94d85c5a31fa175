package dataplane

import (
	"net"
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
)

// maxPayloadMB reads the payload limit in MB (default
// httpx.DefaultMaxPayloadMB).
func maxPayloadMB(f httpx.MaxPayloadFunc) int {
	if f != nil {
		if v := f(); v >= 1 {
			return v
		}
	}
	return httpx.DefaultMaxPayloadMB
}

// newRecord starts the transaction record of a routed request.
func (d *Dispatcher) newRecord(r *http.Request, t Target, start time.Time) *model.TxRecord {
	rec := &model.TxRecord{
		CorrelationID: correlation.ID(r.Context()),
		OccurredAt:    start,
		Direction:     string(t.Direction),
		Environment:   t.Environment,
		Method:        r.Method,
		Path:          r.URL.Path,
		ClientIP:      clientIP(r),
	}
	return rec
}

// recordFailure records a request refused before a direction handler ran
// (no route, license stop, payload too large) with the status it was
// answered.
func (d *Dispatcher) recordFailure(r *http.Request, t Target, e *apierr.Error, status int) {
	rec := d.newRecord(r, t, d.cfg.Now())
	rec.HTTPStatus, rec.ErrorCode, rec.ResultCode = status, e.Code, model.ResultForCode(e.Code)
	if r.ContentLength > 0 {
		rec.RequestBytes = r.ContentLength
	}
	d.cfg.Recorder.Record(rec)
}

// clientIP is the peer address of the request (publish does not trust
// X-Forwarded-For; the gateway's ingress guard does its own attribution).
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
