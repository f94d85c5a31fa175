package observe

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/store"
)

// Bounds on recorded strings, so a hostile request cannot make a record
// arbitrarily large (payloads are bounded by debug_max_payload_kb).
const (
	maxPathLen  = 2048
	maxFieldLen = 256
)

// writeBatch stores a batch of records: COPY on PostgreSQL (about 1.5x
// the records/s of a multi-row INSERT, docs/PERFORMANCE.md), a multi-row
// INSERT on SQLite.
func (r *Recorder) writeBatch(ctx context.Context, batch []model.TxLog) error {
	return r.cfg.Store.CopyTxLogs(ctx, batch)
}

// batchWritten counts a stored batch and marks its services' traffic.
func (r *Recorder) batchWritten(ctx context.Context, batch []model.TxLog) {
	r.written.Add(int64(len(batch)))
	r.batches.Add(1)
	r.metrics.written.Add(float64(len(batch)))
	r.markTraffic(ctx, batch)
}

// batchFailed counts a batch that could not be stored.
func (r *Recorder) batchFailed(n int, err error) {
	r.countWriteDropped(n)
	r.cfg.Logger.Error("recorder: batch not written; records dropped",
		"dropped", n, "attempts", r.cfg.WriteAttempts, "error", err.Error())
}

// drainAbandoned counts the records left queued when the shutdown drain
// timed out.
func (r *Recorder) drainAbandoned(n int) {
	r.countWriteDropped(n)
	r.cfg.Logger.Error("recorder: shutdown drain timed out; records dropped", "dropped", n)
}

func (r *Recorder) countWriteDropped(n int) {
	r.writeDropped.Add(int64(n))
	r.metrics.dropped.WithLabelValues(DropWriteFailed).Add(float64(n))
}

// toLog observes rec's metrics and turns it into a stored log: strings
// bounded, the backend target stripped of credentials and query, payloads
// kept only for debug records and cut at debug_max_payload_kb.
func (r *Recorder) toLog(rec *model.TxRecord) model.TxLog {
	r.metrics.observe(rec)
	l := model.TxLog{
		CorrelationID: store.StorableText(rec.CorrelationID, maxFieldLen),
		OccurredAt:    rec.OccurredAt,
		Direction:     store.StorableText(rec.Direction, maxFieldLen),
		Environment:   store.StorableText(rec.Environment, maxFieldLen),
		ServiceKey:    store.StorableText(rec.ServiceKey, maxFieldLen),
		ServiceID:     store.StorableText(rec.ServiceID, maxFieldLen),
		OperationKey:  store.StorableText(rec.OperationKey, maxFieldLen),
		OperationID:   store.StorableText(rec.OperationID, maxFieldLen),
		Method:        store.StorableText(rec.Method, maxFieldLen),
		Path:          store.StorableText(rec.Path, maxPathLen),
		HTTPStatus:    rec.HTTPStatus,
		ResultCode:    resultLabel(rec.ResultCode),
		InBodyFault:   rec.InBodyFault,
		ErrorCode:     store.StorableText(rec.ErrorCode, maxFieldLen),
		TotalMs:       rec.TotalMs,
		BackendMs:     rec.BackendMs,
		ConverterMs:   rec.ConverterMs,
		BackendTarget: r.redactTarget(rec.BackendTarget),
		ClientIP:      store.StorableText(rec.ClientIP, maxFieldLen),
		RequestBytes:  rec.RequestBytes,
		ResponseBytes: rec.ResponseBytes,
		Debug:         rec.Debug,
	}
	l.ConsumerIdentity = store.StorableText(rec.ConsumerIdentity, maxFieldLen)
	l.ValidationIssues = storableIssues(rec.ValidationIssues)
	if l.OccurredAt.IsZero() {
		l.OccurredAt = r.cfg.Now()
	}
	if rec.Debug {
		// Masked here, before anything is stored (docs/decisions-observe.md).
		// One atomic load of the snapshot per debug record.
		s := r.settings()
		red, limit := s.Redactor, s.DebugMaxPayloadBytes
		l.RequestPayload = capPayload(red, rec.RequestPayload, limit)
		l.ResponsePayload = capPayload(red, rec.ResponsePayload, limit)
		l.BackendRequest = capPayload(red, rec.BackendRequest, limit)
		l.BackendResponse = capPayload(red, rec.BackendResponse, limit)
		l.DebugHeaders = debugHeaders(red, rec.Headers)
	}
	return l
}

// StoredHeaders is the JSON form of a debug record's headers (column
// debug_headers), credentials masked.
type StoredHeaders struct {
	Request         http.Header `json:"request,omitempty"`
	Response        http.Header `json:"response,omitempty"`
	BackendRequest  http.Header `json:"backendRequest,omitempty"`
	BackendResponse http.Header `json:"backendResponse,omitempty"`
}

// debugHeaders masks and encodes h ("" for none).
func debugHeaders(red *redact.Redactor, h *model.DebugHeaders) string {
	if h == nil {
		return ""
	}
	b, err := json.Marshal(StoredHeaders{Request: red.Headers(h.Request), Response: red.Headers(h.Response),
		BackendRequest: red.Headers(h.BackendRequest), BackendResponse: red.Headers(h.BackendResponse)})
	if err != nil || string(b) == "{}" {
		return ""
	}
	return string(b)
}

// redactTarget is RedactTarget and StorableText of a backend target,
// remembering the last one: consecutive records mostly name the same
// backend. Only the writer goroutine calls it.
func (r *Recorder) redactTarget(raw string) string {
	if raw != r.lastTarget || r.lastRedacted == nil {
		t := store.StorableText(model.RedactTarget(raw), maxPathLen)
		r.lastTarget, r.lastRedacted = raw, &t
	}
	return *r.lastRedacted
}

// capPayload returns b cut to limit bytes, marked when cut, with its
// credentials masked (after the cut, which bounds the work: an element
// or JSON body the cut leaves open is masked to its end).
func capPayload(red *redact.Redactor, b []byte, limit int) []byte {
	if len(b) <= limit {
		return red.Payload(b)
	}
	masked := red.Payload(b[:limit])
	out := make([]byte, 0, len(masked)+64)
	out = append(out, masked...)
	out = append(out, "\n[truncated by s2r: "...)
	out = strconv.AppendInt(out, int64(len(b)), 10)
	return append(out, " bytes in all]"...)
}

// maxIssues bounds the validation issues stored per record.
const maxIssues = 20

// storableIssues bounds the number and length of a record's validation
// issues: at most maxIssues are kept, and those past them (or a marker's
// count of them) become one marker entry, so the stored list still says
// how many there were (model.IssueCount).
func storableIssues(in []model.ValidationIssue) []model.ValidationIssue {
	if len(in) == 0 {
		return nil
	}
	out := make([]model.ValidationIssue, 0, min(len(in), maxIssues+1))
	omitted := 0
	for _, v := range in {
		switch {
		case v.Omitted > 0:
			omitted += v.Omitted
		case len(out) >= maxIssues:
			omitted++
		default:
			out = append(out, model.ValidationIssue{Pointer: store.StorableText(v.Pointer, maxPathLen),
				Reason: store.StorableText(v.Reason, maxPathLen)})
		}
	}
	if omitted > 0 {
		out = append(out, model.OmittedIssues(omitted))
	}
	return out
}
