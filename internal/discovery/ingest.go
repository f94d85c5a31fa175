package discovery

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// Paths of the ingest API (runtime listener).
const (
	PathLBEvents    = "/ingest/v1/lb-events"
	PathGenericLogs = "/ingest/v1/generic-logs"
	PathHeartbeat   = "/ingest/v1/heartbeat"
)

// maxSampleURI bounds the example raw URI kept on a row.
const maxSampleURI = 2048

// IngestResponse answers a stored batch.
type IngestResponse struct {
	Received   int `json:"received"`   // events in the batch
	Stored     int `json:"stored"`     // newly stored
	Duplicates int `json:"duplicates"` // ids already stored (or repeated in the batch): accepted, not stored again
}

// HeartbeatResponse answers a heartbeat.
type HeartbeatResponse struct {
	InstanceID string    `json:"instanceId"`
	ReceivedAt time.Time `json:"receivedAt"`
}

// IngestHandler serves /ingest/v1/*. Every answer is JSON; errors are
// S2R-ING-* (docs/discovery.md). A 200 means the batch is committed.
func (s *Service) IngestHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.serveIngest(w, r); err != nil {
			apierr.Render(w, r, err, apierr.IngInternal)
		}
	})
}

func (s *Service) serveIngest(w http.ResponseWriter, r *http.Request) error {
	var handle func(http.ResponseWriter, *http.Request, Instance) error
	switch r.URL.Path {
	case PathLBEvents:
		handle = s.postLBEvents
	case PathGenericLogs:
		handle = s.postGenericLogs
	case PathHeartbeat:
		handle = s.postHeartbeat
	default:
		return apierr.New(apierr.IngNotFound, "no ingest endpoint at this path")
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		return apierr.New(apierr.IngMethodNotAllowed, "ingest endpoints accept POST only").WithDetail("allowed", []string{"POST"})
	}
	inst, err := s.auth.authenticate(r.Context(), r)
	if err != nil {
		return err
	}
	return handle(w, r, inst)
}

// openRequestBody checks the media type, encoding and declared length of
// r's body and opens it with the size limits.
func (s *Service) openRequestBody(r *http.Request) (*body, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		switch {
		case err != nil:
			return nil, apierr.New(apierr.IngUnsupportedMedia, "unreadable Content-Type")
		case mt == "application/json", mt == "application/x-ndjson", mt == "application/ndjson",
			mt == "application/jsonl", mt == "application/x-jsonlines", mt == "text/plain":
		default:
			return nil, apierr.New(apierr.IngUnsupportedMedia, "Content-Type must be application/json or application/x-ndjson")
		}
	}
	encoding := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding")))
	switch encoding {
	case "", "identity":
		encoding = ""
	case "gzip", "x-gzip":
		encoding = "gzip"
	default:
		return nil, apierr.New(apierr.IngUnsupportedMedia, "Content-Encoding must be gzip or absent")
	}
	mb := s.maxPayloadMB()
	if r.ContentLength > int64(mb)<<20 {
		return nil, apierr.PayloadTooLarge(apierr.IngTooLarge, mb).WithDetail("maxEvents", MaxBatchEvents)
	}
	return openBody(r.Body, encoding, mb)
}

// postLBEvents stores a batch of load-balancer events.
func (s *Service) postLBEvents(w http.ResponseWriter, r *http.Request, inst Instance) error {
	red := s.redactor()
	return ingestBatch(s, w, r, inst, func(now time.Time, in *LBEventIn, b *model.IngestBatch, rows *rowSet) *fieldError {
		e, fe := in.toStore(now, red)
		if fe != nil {
			return fe
		}
		e.Row = rows.row(in.URI, inst.Vendor)
		b.LB = append(b.LB, e)
		return nil
	})
}

// postGenericLogs stores a batch of generic gateway logs.
func (s *Service) postGenericLogs(w http.ResponseWriter, r *http.Request, inst Instance) error {
	red := s.redactor()
	return ingestBatch(s, w, r, inst, func(now time.Time, in *GenericLogIn, b *model.IngestBatch, rows *rowSet) *fieldError {
		g, fe := in.toStore(now, inst.Vendor, red)
		if fe != nil {
			return fe
		}
		g.Row = rows.row(in.ServiceURI, g.Vendor)
		b.Generic = append(b.Generic, g)
		return nil
	})
}

// ingestBatch reads r's body as events of type T, adds each to the batch
// with add (which validates it), and stores the batch.
func ingestBatch[T any](s *Service, w http.ResponseWriter, r *http.Request, inst Instance,
	add func(now time.Time, in *T, b *model.IngestBatch, rows *rowSet) *fieldError) error {
	body, err := s.openRequestBody(r)
	if err != nil {
		return err
	}
	now := s.cfg.Now()
	batch := &model.IngestBatch{TenantID: inst.TenantID, InstanceID: inst.InstanceID, InstanceVendor: inst.Vendor, ReceivedAt: now}
	rows := s.newRowSet(r.Context(), batch)
	n, err := readBatch(body, func(i int, in *T) error {
		if fe := add(now, in, batch, rows); fe != nil {
			return eventError(i, fe.field, fe.reason)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.commit(w, r, inst, batch, n)
}

// commit stores batch and answers; n is the number of events received.
func (s *Service) commit(w http.ResponseWriter, r *http.Request, inst Instance, batch *model.IngestBatch, n int) error {
	var res model.IngestResult
	if n > 0 {
		var err error
		res, err = s.cfg.Store.Ingest(r.Context(), batch, Rollups)
		if err != nil {
			return storeError(r.Context(), err)
		}
		s.seen.event(inst.InstanceID, batch.ReceivedAt)
		s.metrics.stored(res)
	}
	return writeJSON(w, http.StatusOK, IngestResponse{Received: n, Stored: res.Stored, Duplicates: res.Duplicates})
}

// storeError answers a failed commit: 503, nothing stored, retry.
func storeError(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return apierr.Wrap(apierr.IngUnavailable, err, "the request ended before the batch was stored; nothing was stored")
	}
	return apierr.Wrap(apierr.IngUnavailable, err, "the batch could not be stored; nothing was stored, retry")
}

// postHeartbeat records that an instance is alive. The body, if any, is
// ignored (at most 64 KB is read).
func (s *Service) postHeartbeat(w http.ResponseWriter, r *http.Request, inst Instance) error {
	if r.ContentLength > 64<<10 {
		return apierr.PayloadTooLarge(apierr.IngTooLarge, 1).WithDetail("reason", "a heartbeat has an empty body")
	}
	now := s.cfg.Now()
	if err := s.cfg.Store.RecordIngestHeartbeat(r.Context(), inst.InstanceID, now); err != nil {
		return storeError(r.Context(), err)
	}
	return writeJSON(w, http.StatusOK, HeartbeatResponse{InstanceID: inst.InstanceID, ReceivedAt: now.UTC()})
}

// rowSet collects the distinct discovery rows of a batch as it is read.
type rowSet struct {
	batch   *model.IngestBatch
	match   *matcher
	byRaw   map[string]int // raw URI → row index
	byURI   map[string]int // serviceUri → row index
	lastRaw string
	lastRow int
}

func (s *Service) newRowSet(ctx context.Context, batch *model.IngestBatch) *rowSet {
	return &rowSet{batch: batch, match: s.currentMatcher(ctx), byRaw: map[string]int{}, byURI: map[string]int{}, lastRow: -1}
}

// row returns the index in the batch's rows of raw's serviceUri, adding
// the row (with its onboarding match) the first time.
func (rs *rowSet) row(raw, vendor string) int {
	if rs.lastRow >= 0 && raw == rs.lastRaw {
		return rs.lastRow
	}
	i, ok := rs.byRaw[raw]
	if !ok {
		uri := NormalizeURI(raw)
		i, ok = rs.byURI[uri]
		if !ok {
			m := rs.match.match(uri)
			i = len(rs.batch.Rows)
			rs.batch.Rows = append(rs.batch.Rows, model.RowRef{ServiceURI: uri, SampleURI: store.StorableText(raw, maxSampleURI),
				Vendor: vendor, OnboardedServiceID: m.ServiceID, Environment: m.Environment, ServiceKey: m.ServiceKey})
			rs.byURI[uri] = i
		}
		if len(rs.byRaw) < 10000 {
			rs.byRaw[raw] = i
		}
	}
	rs.lastRaw, rs.lastRow = raw, i
	return i
}
