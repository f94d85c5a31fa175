package apierr

import (
	"net/http"
	"slices"
)

// Runtime codes (SPEC 7.2).
const (
	RunBadDirection     = "S2R-RUN-0405" // missing or invalid direction segment
	ValBadRequest       = "S2R-VAL-0400" // general bad request (runtime and admin)
	ValRequestSchema    = "S2R-VAL-0410" // request body fails the OpenAPI schema
	ValRequestRegex     = "S2R-VAL-0411" // request field fails a regex
	RunUnauthorized     = "S2R-RUN-0401" // authentication failed (callback, poll token)
	RunWSSecurity       = "S2R-RUN-0407" // inbound WS-Security header refused (DESIGN 10.2)
	GWIngressDenied     = "S2R-GW-0403"  // gateway ingress denied
	GWGrantDenied       = "S2R-GW-0407"  // consumer IP grant denied
	RunNotFound         = "S2R-RUN-0404" // no route or resource for the path
	RunMethodNotAllowed = "S2R-RUN-0411" // method not supported for the endpoint
	RunAlreadyFinished  = "S2R-RUN-0431" // callback for a finished execution
	RunExpired          = "S2R-RUN-0410" // async execution expired
	RunPayloadTooLarge  = "S2R-RUN-0413" // payload over the maximum size
	RunInternal         = "S2R-RUN-0500" // internal error
	RunBackendFault     = "S2R-RUN-0502" // backend SOAP Fault or non-2xx status
	RunBadSOAPResponse  = "S2R-RUN-0504" // SOAP response could not be parsed
	RunBackendAuth      = "S2R-RUN-0505" // backend auth configuration invalid
	RunContractDrift    = "S2R-RUN-0506" // backend response does not match the contract
	ValResponseSchema   = "S2R-VAL-0430" // backend response fails the OpenAPI schema
	ValResponseRegex    = "S2R-VAL-0431" // backend response field fails a regex
	RunUnavailable      = "S2R-RUN-0503" // no active or healthy backend; license stop
	RunCircuitOpen      = "S2R-RUN-0529" // circuit breaker open
	RunBackendTimeout   = "S2R-RUN-0424" // backend timeout
)

// Admin and other codes (SPEC 7.3).
const (
	AdmForbidden    = "S2R-ADM-0403"  // caller role not permitted
	AdmImmutable    = "S2R-ADM-0410"  // version/state conflict (immutable, draft exists, BLOCKED, active)
	DiscNotFound    = "S2R-DISC-0404" // discovery row missing or in another tenant
	DiscBadRequest  = "S2R-DISC-0400" // alert PUT on a row without lbInstanceId
	ObsNotFound     = "S2R-OBS-0400"  // async execution id does not exist
	ObsInvalidState = "S2R-OBS-0422"  // action not allowed in the current state
)

// Codes added by s2r where the SPEC is silent (documented in
// docs/decisions.md).
const (
	AdmUnauthenticated  = "S2R-ADM-0401" // no identity header
	AdmNotFound         = "S2R-ADM-0404" // admin resource not found
	AdmMethodNotAllowed = "S2R-ADM-0405" // method not supported on an admin path
	AdmAlreadyExists    = "S2R-ADM-0409" // admin resource already exists / concurrent change
	AdmPayloadTooLarge  = "S2R-ADM-0413" // admin request body over max_payload_mb
	AdmInternal         = "S2R-ADM-0500" // internal error on the admin surface
	AdmUnavailable      = "S2R-ADM-0503" // admin dependency (database) unavailable
	ValUnsupportedMedia = "S2R-VAL-0415" // unsupported Content-Type
)

// Ingest codes (/ingest/v1, DESIGN 9; documented in docs/discovery.md).
const (
	IngBadRequest       = "S2R-ING-0400" // malformed batch or event (details: index, field, reason)
	IngUnauthorized     = "S2R-ING-0401" // missing, wrong or revoked connector token
	IngNotFound         = "S2R-ING-0404" // no ingest endpoint at the path
	IngMethodNotAllowed = "S2R-ING-0405" // method not supported on an ingest endpoint
	IngTooLarge         = "S2R-ING-0413" // batch over max_payload_mb (also decompressed) or over 5,000 events
	IngUnsupportedMedia = "S2R-ING-0415" // Content-Type or Content-Encoding not accepted
	IngInternal         = "S2R-ING-0500" // internal error on the ingest surface
	IngUnavailable      = "S2R-ING-0503" // database unavailable: nothing stored, retry
)

// registry maps every known code to its HTTP status.
var registry = map[string]int{
	RunBadDirection:     http.StatusBadRequest,
	ValBadRequest:       http.StatusBadRequest,
	ValRequestSchema:    http.StatusBadRequest,
	ValRequestRegex:     http.StatusBadRequest,
	RunUnauthorized:     http.StatusUnauthorized,
	RunWSSecurity:       http.StatusUnauthorized,
	GWIngressDenied:     http.StatusForbidden,
	GWGrantDenied:       http.StatusForbidden,
	RunNotFound:         http.StatusNotFound,
	RunMethodNotAllowed: http.StatusMethodNotAllowed,
	RunAlreadyFinished:  http.StatusConflict,
	RunExpired:          http.StatusGone,
	RunPayloadTooLarge:  http.StatusRequestEntityTooLarge,
	RunInternal:         http.StatusInternalServerError,
	RunBackendFault:     http.StatusBadGateway,
	RunBadSOAPResponse:  http.StatusBadGateway,
	RunBackendAuth:      http.StatusBadGateway,
	RunContractDrift:    http.StatusBadGateway,
	ValResponseSchema:   http.StatusBadGateway,
	ValResponseRegex:    http.StatusBadGateway,
	RunUnavailable:      http.StatusServiceUnavailable,
	RunCircuitOpen:      http.StatusServiceUnavailable,
	RunBackendTimeout:   http.StatusGatewayTimeout,
	RunBackendSaturated: http.StatusServiceUnavailable,
	RunClientRateLimit:  http.StatusTooManyRequests,

	AdmForbidden:    http.StatusForbidden,
	AdmImmutable:    http.StatusConflict,
	DiscNotFound:    http.StatusNotFound,
	DiscBadRequest:  http.StatusBadRequest,
	ObsNotFound:     http.StatusBadRequest,
	ObsInvalidState: http.StatusUnprocessableEntity,

	AdmUnauthenticated:  http.StatusUnauthorized,
	AdmNotFound:         http.StatusNotFound,
	AdmMethodNotAllowed: http.StatusMethodNotAllowed,
	AdmAlreadyExists:    http.StatusConflict,
	AdmPayloadTooLarge:  http.StatusRequestEntityTooLarge,
	AdmInternal:         http.StatusInternalServerError,
	AdmUnavailable:      http.StatusServiceUnavailable,
	ValUnsupportedMedia: http.StatusUnsupportedMediaType,

	IngBadRequest:       http.StatusBadRequest,
	IngUnauthorized:     http.StatusUnauthorized,
	IngNotFound:         http.StatusNotFound,
	IngMethodNotAllowed: http.StatusMethodNotAllowed,
	IngTooLarge:         http.StatusRequestEntityTooLarge,
	IngUnsupportedMedia: http.StatusUnsupportedMediaType,
	IngInternal:         http.StatusInternalServerError,
	IngUnavailable:      http.StatusServiceUnavailable,
}

// StatusOf returns the HTTP status of code and whether the code is known.
// Unknown codes report 500.
func StatusOf(code string) (int, bool) {
	s, ok := registry[code]
	if !ok {
		return http.StatusInternalServerError, false
	}
	return s, true
}

// Known reports whether code is in the registry.
func Known(code string) bool {
	_, ok := registry[code]
	return ok
}

// Codes returns every registered code, sorted.
func Codes() []string {
	out := make([]string, 0, len(registry))
	for c := range registry {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}
