package security

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// The ingest API (/ingest/v1, DESIGN 9) lands with the discovery area;
// the cases here run once a server serves it (entryPoints' probes).

// ingestServed reports whether s serves the ingest API.
func ingestServed(t *testing.T, s *server) bool {
	e := entryFor("/ingest/v1/lb-events")
	return e != nil && e.served(t, s)
}

// registerInstance registers an ingest connector instance in tenant
// ("" for the default) and returns its token.
func (s *server) registerInstance(t *testing.T, name, tenant string) string {
	t.Helper()
	body := map[string]any{"vendor": "f5", "name": name}
	if tenant != "" {
		body["tenantId"] = tenant
	}
	r := s.admin(t, "POST", "/ingest-instances", body).WantStatus(t, 201)
	tok := admintest.Dig(r.JSON(t), "token")
	if tok == "" {
		t.Fatalf("instance registration without a token: %s", r.Body)
	}
	return tok
}

var eventSeq atomic.Int64

// lbEvent is one load-balancer event of uri with payload; the payload is
// left as the marker "\x00PAYLOAD\x00" when payload is nil (streamed in
// by the caller).
func lbEvent(uri string) map[string]any {
	n := eventSeq.Add(1)
	return map[string]any{"eventId": fmt.Sprintf("0195f1a2-0000-7000-8000-%012d", n), "globalTransactionId": fmt.Sprintf("0195f1a2-0000-7000-a000-%012d", n),
		"stage": "client_request", "timestamp": time.Now().UTC().Format(time.RFC3339), "frontVirtualServer": "vs-front",
		"backVirtualServer": "vs-back", "clientIp": "203.0.113.7", "method": "POST", "host": "svc.example", "uri": uri,
		"backend": "10.0.0.5:80", "statusCode": 200, "durationMs": 3.5, "bytesIn": 10, "bytesOut": 20, "resultCode": "ok",
		"soapFault": false, "headers": map[string]string{"Content-Type": "text/xml"}, "payload": ""}
}

// genericEvent is one generic gateway log record of uri.
func genericEvent(uri string) map[string]any {
	n := eventSeq.Add(1)
	return map[string]any{"eventId": fmt.Sprintf("0195f1a2-0000-7000-9000-%012d", n), "timestamp": time.Now().UTC().Format(time.RFC3339),
		"vendor": "kong", "serviceUri": uri, "method": "POST", "statusCode": 500, "latencyMs": 12.5, "consumerIp": "203.0.113.8",
		"backend": "10.0.0.6:80", "resultCode": "error", "soapFault": true, "requestPayload": "", "responsePayload": ""}
}

// ingestWith streams a one-event batch to path with member holding p.
func (s *server) ingestWith(t *testing.T, path, token string, event map[string]any, member string, p payload, chunked bool) resp {
	t.Helper()
	event[member] = rawMark
	b, _ := json.Marshal([]any{event})
	before, after, _ := bytes.Cut(b, []byte(`"\u0000RAW\u0000"`))
	var content io.Reader = &jsonString{src: p.r}
	n := p.n
	if sr, ok := p.r.(*strings.Reader); ok {
		escaped, _ := io.ReadAll(&jsonString{src: sr})
		content, n = bytes.NewReader(escaped), int64(len(escaped))
	}
	if n >= 0 && !chunked {
		n += int64(len(before)) + 2 + int64(len(after))
	} else {
		n = -1
	}
	body := io.MultiReader(bytes.NewReader(before), strings.NewReader(`"`), content, strings.NewReader(`"`), bytes.NewReader(after))
	return s.post(t, path, "application/json", "", body, n, map[string]string{"Authorization": "Bearer " + token})
}

// ingestTargets are the XML attacks' targets on the ingest API: the
// payload members of both event kinds carry the document as data.
func (x *xmlSetup) ingestTargets(t *testing.T) []xmlTarget {
	if !ingestServed(t, x.s) {
		t.Log("waiting case: the ingest API is not served yet")
		return nil
	}
	token := x.s.registerInstance(t, "sec-xml", "")
	return []xmlTarget{
		{name: "ingest lb-events payload", kind: soap11Doc, limit: 10 << 20, opaque: true,
			send: func(t *testing.T, a xmlAttack, chunked bool) resp {
				return x.s.ingestWith(t, "/ingest/v1/lb-events", token, lbEvent("/sec/xml"), "payload", a.build(soap11Doc, x.env), chunked)
			}},
		{name: "ingest generic-logs requestPayload", kind: soap11Doc, limit: 10 << 20, opaque: true,
			send: func(t *testing.T, a xmlAttack, chunked bool) resp {
				return x.s.ingestWith(t, "/ingest/v1/generic-logs", token, genericEvent("/sec/xml"), "requestPayload", a.build(soap11Doc, x.env), chunked)
			}},
	}
}

// TestTenantIsolation: a caller bound to another tenant sees none of the
// default tenant's discovery rows (404 S2R-DISC-0404 on each row route)
// and none of its ingest instances, whatever its role.
func TestTenantIsolation(t *testing.T) {
	s := startServer(t)
	if !ingestServed(t, s) {
		t.Skip("waiting case: the ingest API and discovery are not served yet")
	}
	grantRoles(t, s)
	token := s.registerInstance(t, "sec-tenant", "")
	s.ingestWith(t, "/ingest/v1/lb-events", token, lbEvent("/sec/tenant/orders"), "payload", fixed("<x/>"), false).WantStatus(t, 200)
	var rowID string
	poll.UntilOK(t, settle, "discovery row", func() string {
		r := s.admin(t, "GET", "/master-discovery/rows?q=/sec/tenant", nil).WantStatus(t, 200)
		var page struct {
			Items []struct {
				RowID json.Number `json:"rowId"`
			} `json:"items"`
		}
		dec := json.NewDecoder(bytes.NewReader(r.Body))
		dec.UseNumber()
		if dec.Decode(&page) != nil || len(page.Items) == 0 {
			return "no row yet: " + string(r.Body)
		}
		rowID = page.Items[0].RowID.String()
		return ""
	})
	routes := adminRoutes(t, s)
	for _, rt := range routes {
		if !strings.Contains(rt.Path, "{rowId}") {
			continue
		}
		path := "/admin/v1" + strings.Replace(rt.Path, "{rowId}", rowID, 1)
		body := ""
		if rt.Method == "PUT" {
			body = `{"enabled":true}`
		}
		other := s.send(t, request{method: rt.Method, path: path, email: otherTenantOp, body: strings.NewReader(body), ctype: "application/json"})
		if other.Status != 404 || errorCode(other) != "S2R-DISC-0404" {
			t.Errorf("%s as another tenant's operator: %d %s, want 404 S2R-DISC-0404", rt, other.Status, errorCode(other))
		}
		own := s.send(t, request{method: rt.Method, path: path, email: operatorEmail, body: strings.NewReader(body), ctype: "application/json"})
		if own.Status == 404 || own.Status == 403 || own.Status >= 500 {
			t.Errorf("%s as the tenant's operator: %d %.200s", rt, own.Status, own.Body)
		}
	}
	list := s.send(t, request{method: "GET", path: "/admin/v1/master-discovery/rows", email: otherTenantOp})
	if strings.Contains(string(list.Body), "/sec/tenant") {
		t.Errorf("another tenant lists the row: %.300s", list.Body)
	}
	inst := s.send(t, request{method: "GET", path: "/admin/v1/ingest-instances", email: otherTenantOp})
	if strings.Contains(string(inst.Body), "sec-tenant") {
		t.Errorf("another tenant lists the instance: %.300s", inst.Body)
	}
}
