package query

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/observe"
	"github.com/s2r-project/s2r/internal/redact"
)

// maxCorrelationIDLen bounds the path parameter of a debug-trace lookup.
const maxCorrelationIDLen = 256

var docGetDebugTrace = adminapi.Doc{
	Summary: "Every runtime transaction record of one correlation id, oldest first, with the request, response, backend " +
		"request and backend response payloads and headers of debug transactions (debug on for the service, " +
		"X-Debug-Enabled: true on publish, or debug_payload_logging_enabled), cut at debug_max_payload_kb. Credentials were " +
		"masked as \"" + redact.Mask + "\" before storage: credential headers (Authorization, Cookie, X-S2R-Callback-Secret, " +
		"backend API-key headers), WS-Security Password, Nonce and BinarySecurityToken, and XML elements and \"$headers\" members " +
		"named in debug_redact_names. Payloads and headers are shown to operator and admin only: a reader gets the records " +
		"with payloadsWithheld true. 404 S2R-ADM-0404 when no record has the id.",
	Response: debugTrace{},
	Errors:   []int{http.StatusNotFound},
}

// debugTrace is the answer of GET /debug-traces/{correlationId}.
type debugTrace struct {
	CorrelationID    string       `json:"correlationId"`
	PayloadsWithheld bool         `json:"payloadsWithheld"`
	Records          []traceEntry `json:"records"`
}

// traceEntry is one record of a debug trace with its payloads.
type traceEntry struct {
	Record   model.TxLog            `json:"record"`
	Payloads *tracePayloads         `json:"payloads,omitempty"`
	Headers  *observe.StoredHeaders `json:"headers,omitempty"`
}

// tracePayloads are the recorded bodies of a debug transaction, as text
// (invalid UTF-8 shown as U+FFFD); absent ones are omitted.
type tracePayloads struct {
	Request         string `json:"request,omitempty"`
	Response        string `json:"response,omitempty"`
	BackendRequest  string `json:"backendRequest,omitempty"`
	BackendResponse string `json:"backendResponse,omitempty"`
}

// traceLogs loads the records of the path's correlation id and tells
// whether the caller may see payloads.
func (a *API) traceLogs(r *http.Request) (string, []model.TxLog, bool, error) {
	cid := r.PathValue("correlationId")
	if cid == "" || len(cid) > maxCorrelationIDLen || !utf8.ValidString(cid) || strings.IndexByte(cid, 0) >= 0 {
		return cid, nil, false, adminapi.FieldError("correlationId", "must be 1 to 256 bytes of UTF-8 text without NUL")
	}
	logs, err := a.store.TxLogsByCorrelation(r.Context(), cid)
	if err != nil {
		return cid, nil, false, err
	}
	if len(logs) == 0 {
		return cid, nil, false, apierr.Newf(apierr.AdmNotFound, "no runtime transaction with correlation id %q", cid)
	}
	return cid, logs, showsPayloads(r), nil
}

// getDebugTrace answers every record of a correlation id (SPEC 4.10).
func (a *API) getDebugTrace(w http.ResponseWriter, r *http.Request) error {
	cid, logs, show, err := a.traceLogs(r)
	if err != nil {
		return err
	}
	out := debugTrace{CorrelationID: cid, PayloadsWithheld: !show, Records: make([]traceEntry, len(logs))}
	for i, l := range logs {
		out.Records[i].Record = l
		if show && l.Debug {
			out.Records[i].Payloads = &tracePayloads{
				Request:         payloadText(l.RequestPayload),
				Response:        payloadText(l.ResponsePayload),
				BackendRequest:  payloadText(l.BackendRequest),
				BackendResponse: payloadText(l.BackendResponse),
			}
			out.Records[i].Headers = storedHeaders(l)
		}
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// storedHeaders decodes a record's debug headers; nil when none.
func storedHeaders(l model.TxLog) *observe.StoredHeaders {
	if l.DebugHeaders == "" {
		return nil
	}
	var h observe.StoredHeaders
	if json.Unmarshal([]byte(l.DebugHeaders), &h) != nil {
		return nil
	}
	return &h
}

func payloadText(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }
