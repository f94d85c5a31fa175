package resilience

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/loadgen"
)

// writeKind is one kind of change a client makes whose 2xx promises it is
// stored: it must be there after any crash that follows the answer. Every
// kind is one entry of writeKinds; the crash test runs them all at once.
type writeKind struct {
	name string
	// audited: the change's audit event commits with it, so it must be
	// there too (looked up by the request's correlation id).
	audited bool
	// write makes change n on base, sending correlation id cid; it
	// returns what verify needs to find the change, and the answer.
	write func(w *workload, base string, n int, cid string) (key string, r reply)
	// verify returns "" when every acknowledged key is found on base, else
	// what is missing.
	verify func(w *workload, base string, keys []string) string
}

// workload is the state the write kinds share on one database: the
// onboarded calculator and a scratch backend profile to update.
type workload struct {
	t       *testing.T
	calc    calcService
	async   calcService // add is an async_callback operation
	scratch string      // profile id updated by "backend-profile-update"
	token   string      // of the connector instance sending ingest batches
	gen     *loadgen.Generator

	mu   sync.Mutex
	acks map[string][]ack // by kind
}

// ack is one acknowledged change.
type ack struct{ key, cid string }

func (w *workload) record(kind string, a ack) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.acks[kind] = append(w.acks[kind], a)
}

func (w *workload) acked(kind string) []ack {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]ack(nil), w.acks[kind]...)
}

// writeKinds are the acknowledged writes of s2r as of this branch: admin
// changes of several shapes (row creation, singleton and row updates,
// multi-table autopilot import), async executions (the 202 of an
// async_callback publish) and ingest batches (the 200 of
// POST /ingest/v1/lb-events). Runtime transaction records are not among
// them: they are written asynchronously by design (DESIGN 2) and may be
// lost in a crash; see docs/decisions-resilience.md.
var writeKinds = []writeKind{
	{name: "service", audited: true,
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			r := admin(base, "POST", "/services", map[string]any{"serviceKey": fmt.Sprintf("svc-%d", n),
				"serviceName": fmt.Sprintf("Service %d", n), "environment": "crash"}, "X-Correlation-Id", cid)
			var out struct{ ServiceID string }
			json.Unmarshal(r.body, &out)
			return out.ServiceID, r
		},
		verify: func(w *workload, base string, keys []string) string {
			for _, id := range keys {
				if r := admin(base, "GET", "/services/"+id, nil); r.status != http.StatusOK {
					return "service " + id + ": " + r.String()
				}
			}
			return ""
		}},
	{name: "settings", audited: true,
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			r := admin(base, "PATCH", "/settings", map[string]any{"default_timeout_ms": 10000 + n}, "X-Correlation-Id", cid)
			return strconv.Itoa(10000 + n), r
		},
		verify: func(w *workload, base string, keys []string) string {
			var s struct {
				DefaultTimeoutMs int `json:"default_timeout_ms"`
			}
			r := admin(base, "GET", "/settings", nil)
			json.Unmarshal(r.body, &s)
			// One writer, in order: the stored value is the last
			// acknowledged one or a later one that committed unanswered.
			if want := maxKey(keys); s.DefaultTimeoutMs < want {
				return fmt.Sprintf("default_timeout_ms = %d, acknowledged %d (%s)", s.DefaultTimeoutMs, want, r)
			}
			return ""
		}},
	{name: "backend-profile", audited: true,
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			name := fmt.Sprintf("bp-%d", n)
			r := admin(base, "POST", "/services/"+w.calc.ServiceID+"/backend-profiles",
				map[string]any{"name": name, "endpointUrl": "http://127.0.0.1:9/" + name, "routingPriority": 100 + n}, "X-Correlation-Id", cid)
			return name, r
		},
		verify: func(w *workload, base string, keys []string) string {
			return missingNames(admin(base, "GET", "/services/"+w.calc.ServiceID+"/backend-profiles", nil), "name", keys)
		}},
	{name: "backend-profile-update", audited: true,
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			r := admin(base, "PATCH", "/backend-profiles/"+w.scratch, map[string]any{"timeoutMs": 1000 + n}, "X-Correlation-Id", cid)
			return strconv.Itoa(1000 + n), r
		},
		verify: func(w *workload, base string, keys []string) string {
			r := admin(base, "GET", "/services/"+w.calc.ServiceID+"/backend-profiles", nil)
			for _, p := range listItems(r) {
				if p["profileId"] == w.scratch {
					timeout, _ := p["timeoutMs"].(float64)
					if want := maxKey(keys); int(timeout) < want {
						return fmt.Sprintf("scratch profile timeoutMs = %v, acknowledged %d", p["timeoutMs"], want)
					}
					return ""
				}
			}
			return "scratch profile missing: " + r.String()
		}},
	{name: "permission-binding", audited: true,
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			email := fmt.Sprintf("crash-%d@example.com", n)
			r := admin(base, "POST", "/permission-bindings", map[string]any{"email": email, "role": "reader"}, "X-Correlation-Id", cid)
			return email, r
		},
		verify: func(w *workload, base string, keys []string) string {
			return missingNames(admin(base, "GET", "/permission-bindings", nil), "email", keys)
		}},
	{name: "test-dataset", audited: true,
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			name := fmt.Sprintf("ds-%d", n)
			r := admin(base, "POST", "/services/"+w.calc.ServiceID+"/test-datasets",
				map[string]any{"name": name, "operationKey": "add", "payload": map[string]any{"a": n, "b": 1}}, "X-Correlation-Id", cid)
			return name, r
		},
		verify: func(w *workload, base string, keys []string) string {
			return missingNames(admin(base, "GET", "/services/"+w.calc.ServiceID+"/test-datasets", nil), "name", keys)
		}},
	{name: "autopilot-import", audited: true,
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			r := admin(base, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": calcWSDL,
				"environment": "crash", "serviceKey": fmt.Sprintf("auto-%d", n)}, "X-Correlation-Id", cid)
			var out struct {
				Service    struct{ ServiceID string }
				Version    struct{ VersionID string }
				Operations []json.RawMessage
			}
			json.Unmarshal(r.body, &out)
			return fmt.Sprintf("%s/%s/%d", out.Service.ServiceID, out.Version.VersionID, len(out.Operations)), r
		},
		verify: func(w *workload, base string, keys []string) string {
			for _, k := range keys {
				p := strings.Split(k, "/")
				r := admin(base, "GET", "/services/"+p[0]+"/versions/"+p[1]+"/operations", nil)
				ops := listItems(r)
				if r.status != http.StatusOK || strconv.Itoa(len(ops)) != p[2] {
					return fmt.Sprintf("autopilot %s: %d operations, want %s: %s", k, len(ops), p[2], r)
				}
			}
			return ""
		}},
	{name: "async-execution",
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			r := call("POST", base+"/publish/dev/"+w.async.Key+"/add", fmt.Sprintf(`{"a":%d,"b":1}`, n), "X-Correlation-Id", cid)
			return cid, r
		},
		verify: func(w *workload, base string, keys []string) string {
			for _, id := range keys {
				r := admin(base, "GET", "/async-executions/"+url.PathEscape(id), nil)
				if r.status != http.StatusOK {
					return "async execution " + id + ": " + r.String()
				}
			}
			return ""
		}},
	{name: "ingest-batch",
		write: func(w *workload, base string, n int, cid string) (string, reply) {
			b := newIngestBatch(w.t, w.gen, n, 20)
			return b.uri, postIngest(base, w.token, b)
		},
		verify: func(w *workload, base string, keys []string) string {
			for _, uri := range keys {
				if msg := discoveryRow(base, uri); msg != "" {
					return msg
				}
			}
			return ""
		}},
}

// calcWSDL is the calculator WSDL the autopilot writes import.
var calcWSDL string

// maxKey returns the largest of keys read as integers.
func maxKey(keys []string) int {
	m := 0
	for _, k := range keys {
		if n, _ := strconv.Atoi(k); n > m {
			m = n
		}
	}
	return m
}

// missingNames checks that a JSON array answer holds an object whose
// member field is each of keys.
func missingNames(r reply, field string, keys []string) string {
	items := listItems(r)
	if items == nil {
		return "list: " + r.String()
	}
	have := map[string]bool{}
	for _, it := range items {
		if s, ok := it[field].(string); ok {
			have[s] = true
		}
	}
	var missing []string
	for _, k := range keys {
		if !have[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("%d of %d missing: %v", len(missing), len(keys), missing)
	}
	return ""
}

// listItems returns the items of a list answer: a JSON array, or an
// object whose items member is one.
func listItems(r reply) []map[string]any {
	var items []map[string]any
	if json.Unmarshal(r.body, &items) == nil {
		return items
	}
	var page struct{ Items []map[string]any }
	json.Unmarshal(r.body, &page)
	return page.Items
}

// verifyAudit checks that every acknowledged change has its audit event.
func verifyAudit(base string, acks []ack) string {
	for _, a := range acks {
		var page struct{ TotalItems int }
		r := admin(base, "GET", "/audit-events?result=success&correlationId="+url.QueryEscape(a.cid), nil)
		json.Unmarshal(r.body, &page)
		if page.TotalItems < 1 {
			return "no audit event for " + a.cid + ": " + r.String()
		}
	}
	return ""
}
