package query

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/redact"
)

var docGetReplayMetadata = adminapi.Doc{
	Summary: "What replaying the runtime requests of one correlation id needs (DESIGN 9): per record the method, the " +
		"runtime path, the request headers worth sending again and the captured request payload (operator and admin only; " +
		"credentials masked as \"" + redact.Mask + "\"), with replayable false and the reasons when the request cannot be " +
		"resent as it was: no debug capture, no route matched, a payload cut at debug_max_payload_kb, or masked values that " +
		"must be supplied again. 404 S2R-ADM-0404 when no record has the id.",
	Response: replayMetadata{},
	Errors:   []int{http.StatusNotFound},
}

// replayMetadata is the answer of GET /debug-traces/{id}/replay-metadata.
type replayMetadata struct {
	CorrelationID    string          `json:"correlationId"`
	PayloadsWithheld bool            `json:"payloadsWithheld"`
	Replayable       bool            `json:"replayable"`
	Requests         []replayRequest `json:"requests"`
}

// replayRequest is one recorded request, as it would be sent again.
type replayRequest struct {
	RecordID           int64       `json:"recordId"`
	OccurredAt         time.Time   `json:"occurredAt"`
	Direction          string      `json:"direction"`
	Environment        string      `json:"environment"`
	ServiceKey         string      `json:"serviceKey"`
	ServiceID          string      `json:"serviceId,omitempty"`
	OperationKey       string      `json:"operationKey"`
	OperationID        string      `json:"operationId,omitempty"`
	Method             string      `json:"method"`
	Path               string      `json:"path"`
	ContentType        string      `json:"contentType,omitempty"`
	Headers            http.Header `json:"headers,omitempty"`
	Payload            *string     `json:"payload,omitempty"`
	PayloadTruncated   bool        `json:"payloadTruncated"`
	Redacted           bool        `json:"redacted"`
	OriginalStatus     int         `json:"originalStatus"`
	OriginalResultCode string      `json:"originalResultCode"`
	Replayable         bool        `json:"replayable"`
	Reasons            []string    `json:"reasons,omitempty"`
}

// notReplayed are request headers a replay sets afresh.
var notReplayed = map[string]bool{
	"Host": true, "Content-Length": true, "Connection": true, "Keep-Alive": true, "Transfer-Encoding": true,
	"Te": true, "Trailer": true, "Upgrade": true, "Proxy-Connection": true, "X-Correlation-Id": true,
	"X-Forwarded-For": true, "X-Forwarded-Host": true, "X-Forwarded-Proto": true, "Forwarded": true,
	"X-Real-Ip": true, "Traceparent": true, "Tracestate": true, "Accept-Encoding": true,
}

// truncationMark starts the note the recorder puts after a cut payload.
var truncationMark = []byte("\n[truncated by s2r: ")

// getReplayMetadata answers GET /debug-traces/{correlationId}/replay-metadata.
func (a *API) getReplayMetadata(w http.ResponseWriter, r *http.Request) error {
	cid, logs, show, err := a.traceLogs(r)
	if err != nil {
		return err
	}
	out := replayMetadata{CorrelationID: cid, PayloadsWithheld: !show, Replayable: true, Requests: make([]replayRequest, len(logs))}
	for i, l := range logs {
		rr := replayRequest{RecordID: l.ID, OccurredAt: l.OccurredAt, Direction: l.Direction, Environment: l.Environment,
			ServiceKey: l.ServiceKey, ServiceID: l.ServiceID, OperationKey: l.OperationKey, OperationID: l.OperationID,
			Method: l.Method, Path: l.Path, OriginalStatus: l.HTTPStatus, OriginalResultCode: l.ResultCode}
		if h := storedHeaders(l); h != nil {
			rr.ContentType = h.Request.Get("Content-Type")
			rr.Headers = http.Header{}
			for k, vs := range h.Request {
				if notReplayed[http.CanonicalHeaderKey(k)] {
					continue
				}
				rr.Headers[k] = vs
				for _, v := range vs {
					rr.Redacted = rr.Redacted || strings.Contains(v, redact.Mask)
				}
			}
		}
		rr.PayloadTruncated = bytes.Contains(l.RequestPayload, truncationMark)
		rr.Redacted = rr.Redacted || bytes.Contains(l.RequestPayload, []byte(redact.Mask))
		switch {
		case !l.Debug:
			rr.Reasons = append(rr.Reasons, "the request ran without debug, so its payload and headers were not captured")
		case l.ServiceKey == "":
			rr.Reasons = append(rr.Reasons, "the request matched no service")
		}
		if rr.PayloadTruncated {
			rr.Reasons = append(rr.Reasons, "the payload was cut at debug_max_payload_kb")
		}
		if rr.Redacted {
			rr.Reasons = append(rr.Reasons, "credentials were masked: supply them again to replay")
		}
		rr.Replayable = len(rr.Reasons) == 0
		out.Replayable = out.Replayable && rr.Replayable
		if !show {
			rr.Headers = nil
		} else if l.Debug && l.RequestPayload != nil {
			p := payloadText(l.RequestPayload)
			rr.Payload = &p
		}
		out.Requests[i] = rr
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}
