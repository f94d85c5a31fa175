package model

import (
	"net/http"
	"net/url"
	"time"
)

// Result codes of a transaction record. SPEC 4.11 rule 4 counts a record
// as an error when its ResultCode is anything but ResultSuccess, or when
// InBodyFault is true. The runtime maps its outcomes onto them so:
//
//   - ResultSuccess: the client got a 2xx answer converted without error
//     (an in-body SOAP Fault in an HTTP 200 is success plus InBodyFault on
//     gateway, where the body is relayed untouched; on publish/consume the
//     fault becomes S2R-RUN-0502 and ResultBackendFailure).
//   - ResultFailed: the client's own request was refused: S2R-VAL-0400,
//     -0410, -0411, S2R-RUN-0404, -0405, -0411, -0413 (request side),
//     S2R-GW-0403, -0407, S2R-RUN-0401, -0407 (WS-Security refused).
//   - ResultBackendFailure: the backend was reached but answered wrongly:
//     S2R-RUN-0502 (SOAP Fault or non-2xx), -0504 (unparseable response),
//     -0506 (contract drift), -0413 on the response, and connection
//     failures (refused, reset, TLS).
//   - ResultError: s2r could not serve the request: S2R-RUN-0500, -0503
//     (no healthy backend, license stop), -0529 (breaker open), -0505
//     (backend auth configuration).
//   - ResultTimeout: S2R-RUN-0424.
//   - ResultResponseSchemaViolation: S2R-VAL-0430 and S2R-VAL-0431.
const (
	ResultSuccess                 = "success"
	ResultFailed                  = "failed"
	ResultBackendFailure          = "backend_failure"
	ResultError                   = "error"
	ResultTimeout                 = "timeout"
	ResultResponseSchemaViolation = "response_schema_violation"
)

// ResultForCode returns the result code for an S2R error code by the table
// above; "" maps to ResultSuccess and unknown codes to ResultError.
func ResultForCode(code string) string {
	switch code {
	case "":
		return ResultSuccess
	case "S2R-VAL-0400", "S2R-VAL-0410", "S2R-VAL-0411", "S2R-RUN-0404", "S2R-RUN-0405",
		"S2R-RUN-0411", "S2R-RUN-0413", "S2R-GW-0403", "S2R-GW-0407", "S2R-RUN-0401", "S2R-RUN-0407",
		"S2R-RUN-0410", "S2R-RUN-0431", "S2R-RUN-0429":
		return ResultFailed
	case "S2R-RUN-0502", "S2R-RUN-0504", "S2R-RUN-0506":
		return ResultBackendFailure
	case "S2R-RUN-0424":
		return ResultTimeout
	case "S2R-VAL-0430", "S2R-VAL-0431":
		return ResultResponseSchemaViolation
	}
	return ResultError
}

// TxRecord is one runtime transaction as the data plane hands it to its
// recorder (dataplane.Recorder, implemented by internal/observe). The
// handler fills it once the response is written; the recorder owns it
// afterwards and the handler must not touch it again.
//
// Payload fields and Headers are set only when Debug is true. The recorder
// masks credentials in them (internal/redact: credential headers,
// WS-Security values, debug_redact_names) before they are stored, and
// caps payloads at setting debug_max_payload_kb.
type TxRecord struct {
	CorrelationID string
	OccurredAt    time.Time // when the request arrived
	Direction     string    // DirectionPublish, DirectionConsume or DirectionGateway
	Environment   string
	ServiceKey    string // from the route table, "" when no route matched
	ServiceID     string
	OperationKey  string // from the route table, "" when none matched
	OperationID   string
	Method        string
	Path          string // the request path, without the query string
	HTTPStatus    int
	ResultCode    string // one of the Result* constants
	InBodyFault   bool   // a SOAP Fault in an HTTP 200 answer
	ErrorCode     string // S2R code of the answer, "" on success

	TotalMs     float64 // microsecond precision
	BackendMs   float64
	ConverterMs float64

	BackendTarget string // URL of the backend called; see RedactTarget
	ClientIP      string
	RequestBytes  int64
	ResponseBytes int64

	// ConsumerIdentity is the username or certificate subject that the
	// request's WS-Security header authenticated (DESIGN 10.2; JSON
	// consumerIdentity on the stored log); "" when none.
	ConsumerIdentity string
	// ValidationIssues are the contract violations of a backend response
	// answered under responseValidation "detect" (DESIGN 10.6).
	ValidationIssues []ValidationIssue

	Debug           bool
	RequestPayload  []byte
	ResponsePayload []byte
	BackendRequest  []byte
	BackendResponse []byte
	Headers         *DebugHeaders
}

// DebugHeaders are the headers of a debug transaction: the client's
// request, the answer to it, and the backend request (as sent, auth
// included) and answer. Absent ones are nil.
type DebugHeaders struct {
	Request, Response, BackendRequest, BackendResponse http.Header
}

// RedactTarget returns raw without user info, query string and fragment,
// so a backend URL carrying credentials (user:pass@, ?apikey=) can be
// recorded. An unparsable URL records as "".
func RedactTarget(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User = nil
	u.RawQuery = ""
	u.ForceQuery = false
	u.Fragment = ""
	u.RawFragment = ""
	return u.String()
}

// ValidationIssue is one contract violation of a backend response: the
// JSON pointer (or XML path, for a SOAP response that did not convert) of
// the offending value and why it breaks the contract.
//
// A record lists a bounded number of issues; when a response had more,
// the last entry is a marker (OmittedIssues): Omitted counts the issues
// found and not listed, and Pointer is empty.
type ValidationIssue struct {
	Pointer string `json:"pointer"`
	Reason  string `json:"reason"`
	Omitted int    `json:"omitted,omitempty"`
}

// OmittedIssues is the marker entry of n issues found and not listed.
func OmittedIssues(n int) ValidationIssue {
	return ValidationIssue{Reason: "further issues not listed", Omitted: n}
}

// IssueCount is how many issues a list stands for: one per entry, the
// marker's Omitted for the marker.
func IssueCount(issues []ValidationIssue) int {
	n := 0
	for _, v := range issues {
		if v.Omitted > 0 {
			n += v.Omitted
		} else {
			n++
		}
	}
	return n
}
