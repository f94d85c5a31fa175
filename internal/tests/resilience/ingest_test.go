package resilience

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/loadgen"
)

// ingestBatch is one batch of lb events for POST /ingest/v1/lb-events,
// every event on one service URI (a word, so discovery keeps it as is).
type ingestBatch struct {
	uri  string
	body []byte
}

// syllables spell batch numbers as words: letters only, alternating
// consonants and vowels, so discovery's identifier heuristic leaves them.
var syllables = []string{"ba", "ke", "lo", "mu", "ti", "so", "ne", "ri"}

// batchURI returns the service URI of batch n.
func batchURI(n int) string {
	var b strings.Builder
	b.WriteString("/crash-ingest/")
	for first := true; first || n > 0; first = false {
		b.WriteString(syllables[n%len(syllables)])
		n /= len(syllables)
	}
	return b.String()
}

// newIngestBatch builds batch n of events lb events from gen.
func newIngestBatch(t *testing.T, gen *loadgen.Generator, n, events int) ingestBatch {
	uri := batchURI(n)
	if got := discovery.NormalizeURI(uri); got != uri {
		t.Fatalf("batch URI %s normalises to %s", uri, got)
	}
	evs := gen.LBBatch(events, time.Now())
	for i := range evs {
		evs[i].URI = uri
	}
	body, err := loadgen.Encode(evs, false, false)
	if err != nil {
		t.Fatal(err)
	}
	return ingestBatch{uri: uri, body: body}
}

// postIngest sends a batch with the connector token.
func postIngest(base, token string, b ingestBatch) reply {
	req, _ := http.NewRequest("POST", base+"/ingest/v1/lb-events", bytes.NewReader(b.body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return reply{err: err}
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(resp.Body)
	return reply{status: resp.StatusCode, body: buf.Bytes(), header: resp.Header, err: err}
}

// ingestToken registers a connector instance and returns its token.
func ingestToken(t *testing.T, base string) string {
	t.Helper()
	var out struct{ Token string }
	mustAdmin(t, base, "POST", "/ingest-instances", map[string]any{"vendor": "f5", "name": "resilience"}, http.StatusCreated).decode(t, &out)
	return out.Token
}

// discoveryRow returns "" when the discovery row of uri is listed with
// calls in the last 24 hours: the row, the events and their rollups
// commit in one transaction.
func discoveryRow(base, uri string) string {
	r := admin(base, "GET", "/master-discovery/rows?pageSize=200&q="+url.QueryEscape(uri), nil)
	for _, it := range listItems(r) {
		if it["serviceUri"] == uri {
			if calls, _ := it["calls24h"].(float64); calls > 0 {
				return ""
			}
			return "row " + uri + " without calls: " + r.String()
		}
	}
	return "no row " + uri + ": " + r.String()
}
