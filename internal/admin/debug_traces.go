package admin

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// maxCorrelationIDLen bounds the path parameter of a debug-trace lookup.
const maxCorrelationIDLen = 256

var docGetDebugTrace = adminapi.Doc{
	Summary: "Every runtime transaction record of one correlation id, oldest first, with the request, response, " +
		"backend request and backend response payloads of debug transactions (debug on for the route, " +
		"X-Debug-Enabled: true on publish, or debug_payload_logging_enabled), cut at debug_max_payload_kb. " +
		"Payloads are business data, so they are shown to operator and admin only: a reader gets the records " +
		"with payloadsWithheld true and no payloads. Payloads are bodies only; headers (Authorization and " +
		"other credentials) are never recorded. 404 S2R-ADM-0404 when no record has the id.",
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
	Record   store.TxLog    `json:"record"`
	Payloads *tracePayloads `json:"payloads,omitempty"`
}

// tracePayloads are the recorded bodies of a debug transaction, as text
// (invalid UTF-8 shown as U+FFFD); absent ones are omitted.
type tracePayloads struct {
	Request         string `json:"request,omitempty"`
	Response        string `json:"response,omitempty"`
	BackendRequest  string `json:"backendRequest,omitempty"`
	BackendResponse string `json:"backendResponse,omitempty"`
}

// getDebugTrace answers every record of a correlation id (SPEC 4.10).
func (s *server) getDebugTrace(w http.ResponseWriter, r *http.Request) error {
	cid := r.PathValue("correlationId")
	if cid == "" || len(cid) > maxCorrelationIDLen || !utf8.ValidString(cid) || strings.IndexByte(cid, 0) >= 0 {
		return adminapi.FieldError("correlationId", "must be 1 to 256 bytes of UTF-8 text without NUL")
	}
	logs, err := s.store.TxLogsByCorrelation(r.Context(), cid)
	if err != nil {
		return err
	}
	if len(logs) == 0 {
		return apierr.Newf(apierr.AdmNotFound, "no runtime transaction with correlation id %q", cid)
	}
	caller, _ := access.CallerFrom(r.Context())
	show := caller.Role.AtLeast(model.RoleOperator)
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
		}
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

func payloadText(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }
