// Package loadgen generates realistic ingest traffic and replays it
// against a running s2r: F5-style load-balancer transactions (four stage
// events each) and generic gateway access logs for N services with a
// chosen error rate. It is what `s2r loadgen` runs, and what discovery's
// tests and benchmarks feed s2r with. It speaks only the documented wire
// format of /ingest/v1 (docs/discovery.md), like any other connector.
package loadgen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// LBEvent is one event of /ingest/v1/lb-events.
type LBEvent struct {
	EventID             string            `json:"eventId"`
	GlobalTransactionID string            `json:"globalTransactionId"`
	Stage               string            `json:"stage"`
	Timestamp           string            `json:"timestamp"`
	FrontVirtualServer  string            `json:"frontVirtualServer,omitempty"`
	BackVirtualServer   string            `json:"backVirtualServer,omitempty"`
	ClientIP            string            `json:"clientIp,omitempty"`
	Method              string            `json:"method,omitempty"`
	Host                string            `json:"host,omitempty"`
	URI                 string            `json:"uri"`
	Backend             string            `json:"backend,omitempty"`
	StatusCode          int               `json:"statusCode"`
	DurationMs          float64           `json:"durationMs"`
	BytesIn             int64             `json:"bytesIn"`
	BytesOut            int64             `json:"bytesOut"`
	ResultCode          string            `json:"resultCode,omitempty"`
	SoapFault           bool              `json:"soapFault"`
	Headers             map[string]string `json:"headers,omitempty"`
	Payload             string            `json:"payload,omitempty"`
}

// GenericLog is one record of /ingest/v1/generic-logs.
type GenericLog struct {
	EventID         string  `json:"eventId"`
	Timestamp       string  `json:"timestamp"`
	Vendor          string  `json:"vendor,omitempty"`
	ServiceURI      string  `json:"serviceUri"`
	Method          string  `json:"method,omitempty"`
	StatusCode      int     `json:"statusCode"`
	LatencyMs       float64 `json:"latencyMs"`
	ConsumerIP      string  `json:"consumerIp,omitempty"`
	Backend         string  `json:"backend,omitempty"`
	ResultCode      string  `json:"resultCode,omitempty"`
	SoapFault       bool    `json:"soapFault"`
	RequestPayload  string  `json:"requestPayload,omitempty"`
	ResponsePayload string  `json:"responsePayload,omitempty"`
}

// Config shapes the generated traffic.
type Config struct {
	Services     int     // distinct services; default 10
	ErrorRate    float64 // fraction of failing calls, 0..1
	Consumers    int     // client IPs per service; default 8
	PayloadBytes int     // approximate size of request and response payloads; 0: none
	Vendor       string  // vendor of generic logs; default "kong"
	Seed         uint64  // 0: random
	// Skew > 1 picks services by a Zipf law of that exponent (a few
	// services take most calls, as in real estates); 0 picks uniformly.
	Skew float64
}

// Service is one generated service.
type Service struct {
	Name     string
	Path     string // URI path as sent; "{id}" marks a per-call identifier
	Backend  string // host:port
	FrontVS  string
	BackPool string
	Action   string
}

// Generator produces events. It is not safe for concurrent use.
type Generator struct {
	cfg      Config
	rng      *rand.Rand
	services []Service
	request  []string // request payload per service
	response []string
	fault    string
	zipf     *rand.Zipf
}

var (
	serviceNames = []string{"Customer", "Order", "Billing", "Inventory", "Payment", "Claims", "Policy", "Shipping",
		"Account", "Quote", "Pricing", "Ledger", "Document", "Identity", "Notification", "Loyalty", "Tariff", "Contract"}
	pathShapes = []string{
		"/%sService/%sService.asmx",
		"/ws/%sPort",
		"/services/%s/v2",
		"/api/%s/{id}/details",
		"/soap/%sService/{id}",
		"/%sWS/services/%sHttpSoap11Endpoint",
	}
	failures = []struct {
		status int
		result string
		fault  bool
		weight int
	}{{500, "ok", true, 50}, {0, "reset", false, 20}, {504, "timeout", false, 15}, {503, "no_backend", false, 15}}
)

// New returns a generator for cfg.
func New(cfg Config) *Generator {
	if cfg.Services <= 0 {
		cfg.Services = 10
	}
	if cfg.Consumers <= 0 {
		cfg.Consumers = 8
	}
	if cfg.Vendor == "" {
		cfg.Vendor = "kong"
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	g := &Generator{cfg: cfg, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for i := range cfg.Services {
		name := serviceNames[i%len(serviceNames)]
		if n := i / len(serviceNames); n > 0 {
			name += strconv.Itoa(n + 1)
		}
		shape := pathShapes[i%len(pathShapes)]
		path := strings.ReplaceAll(shape, "%s", name)
		lower := strings.ToLower(name)
		g.services = append(g.services, Service{Name: name, Path: path,
			Backend: fmt.Sprintf("10.20.%d.%d:8080", i/250, i%250+1), FrontVS: "/Common/vs_" + lower + "_443",
			BackPool: "/Common/pool_" + lower, Action: "urn:" + lower + ":Get" + name})
		g.request = append(g.request, envelope("Get"+name+"Request", cfg.PayloadBytes))
		g.response = append(g.response, envelope("Get"+name+"Response", cfg.PayloadBytes))
	}
	if cfg.Skew > 1 && cfg.Services > 1 {
		g.zipf = rand.NewZipf(g.rng, cfg.Skew, 1, uint64(cfg.Services-1))
	}
	g.fault = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>` +
		`<faultcode>soap:Server</faultcode><faultstring>backend unavailable</faultstring></soap:Fault></soap:Body></soap:Envelope>`
	return g
}

// envelope returns a SOAP envelope of about size bytes ("" for 0).
func envelope(element string, size int) string {
	if size <= 0 {
		return ""
	}
	head := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><` + element + ` xmlns="urn:example">`
	tail := `</` + element + `></soap:Body></soap:Envelope>`
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len()+len(tail) < size; i++ {
		fmt.Fprintf(&b, "<item><id>%d</id><name>item %d</name></item>", i, i)
	}
	b.WriteString(tail)
	return b.String()
}

// Services returns the generated services.
func (g *Generator) Services() []Service { return g.services }

// uuid4 returns a random (version 4) UUID from the generator's source.
func (g *Generator) uuid4() string {
	var b [16]byte
	hi, lo := g.rng.Uint64(), g.rng.Uint64()
	for i := range 8 {
		b[i], b[8+i] = byte(hi>>(8*i)), byte(lo>>(8*i))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hexd = "0123456789abcdef"
	out := make([]byte, 36)
	j := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hexd[c>>4], hexd[c&15]
		j += 2
	}
	return string(out)
}

// call is one generated call.
type call struct {
	svc      int
	uri      string
	client   string
	duration float64
	status   int
	result   string
	fault    bool
}

func (g *Generator) newCall() call {
	i := g.rng.IntN(len(g.services))
	if g.zipf != nil {
		i = int(g.zipf.Uint64())
	}
	s := g.services[i]
	c := call{svc: i, uri: g.fillID(s.Path), client: fmt.Sprintf("172.16.%d.%d", i%256, g.rng.IntN(g.cfg.Consumers)+1),
		duration: 5 + g.rng.ExpFloat64()*40, status: 200, result: "ok"}
	if g.rng.Float64() < g.cfg.ErrorRate {
		n := g.rng.IntN(100)
		for _, f := range failures {
			if n < f.weight {
				c.status, c.result, c.fault = f.status, f.result, f.fault
				break
			}
			n -= f.weight
		}
	}
	if g.rng.IntN(10) == 0 {
		c.uri += "?trace=" + strconv.Itoa(g.rng.IntN(1000))
	}
	return c
}

// fillID replaces "{id}" with a per-call identifier: a number or a UUID.
func (g *Generator) fillID(path string) string {
	if !strings.Contains(path, "{id}") {
		return path
	}
	id := strconv.Itoa(10000 + g.rng.IntN(900000))
	if g.rng.IntN(2) == 0 {
		id = g.uuid4()
	}
	return strings.Replace(path, "{id}", id, 1)
}

// timestamp formats t as the wire's RFC 3339 with milliseconds.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// LBTransaction returns the four stage events of one transaction that
// started at start.
func (g *Generator) LBTransaction(start time.Time) []LBEvent {
	c := g.newCall()
	s := g.services[c.svc]
	gtid := g.uuid4()
	headers := map[string]string{"Content-Type": "text/xml; charset=utf-8", "SOAPAction": `"` + s.Action + `"`,
		"User-Agent": "Apache-HttpClient/4.5.13", "Authorization": "Basic c2VjcmV0OnNlY3JldA=="}
	req, resp := g.request[c.svc], g.response[c.svc]
	if c.fault {
		resp = g.fault
	}
	if c.result != "ok" {
		resp = ""
	}
	end := start.Add(time.Duration(c.duration * float64(time.Millisecond)))
	base := LBEvent{GlobalTransactionID: gtid, FrontVirtualServer: s.FrontVS, BackVirtualServer: s.BackPool,
		ClientIP: c.client, Method: "POST", Host: "api.example.com", URI: c.uri, Backend: s.Backend}
	stages := []struct {
		stage   string
		at      time.Time
		payload string
		resp    bool
	}{
		{"client_request", start, req, false},
		{"server_request", start.Add(time.Millisecond), "", false},
		{"server_response", end.Add(-time.Millisecond), "", true},
		{"client_response", end, resp, true},
	}
	out := make([]LBEvent, 0, 4)
	for _, st := range stages {
		e := base
		e.EventID, e.Stage, e.Timestamp, e.Payload = g.uuid4(), st.stage, timestamp(st.at), st.payload
		e.BytesIn = int64(len(req))
		if st.resp {
			e.StatusCode, e.ResultCode, e.SoapFault = c.status, c.result, c.fault
			e.DurationMs = c.duration
			e.BytesOut = int64(len(resp))
		} else {
			e.Headers = headers
		}
		out = append(out, e)
	}
	return out
}

// LBBatch returns about n events (whole transactions) spread over the
// second before end.
func (g *Generator) LBBatch(n int, end time.Time) []LBEvent {
	out := make([]LBEvent, 0, n+3)
	for len(out) < n {
		start := end.Add(-time.Duration(g.rng.IntN(1000)) * time.Millisecond)
		out = append(out, g.LBTransaction(start)...)
	}
	return out
}

// GenericBatch returns n generic logs spread over the second before end.
func (g *Generator) GenericBatch(n int, end time.Time) []GenericLog {
	out := make([]GenericLog, n)
	for i := range out {
		c := g.newCall()
		s := g.services[c.svc]
		resp := g.response[c.svc]
		if c.fault {
			resp = g.fault
		}
		out[i] = GenericLog{EventID: g.uuid4(), Timestamp: timestamp(end.Add(-time.Duration(g.rng.IntN(1000)) * time.Millisecond)),
			Vendor: g.cfg.Vendor, ServiceURI: c.uri, Method: "POST", StatusCode: c.status, LatencyMs: c.duration,
			ConsumerIP: c.client, Backend: s.Backend, ResultCode: c.result, SoapFault: c.fault,
			RequestPayload: g.request[c.svc], ResponsePayload: resp}
	}
	return out
}
