package convert

import (
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// TestConcurrentUse converts with one plan from many goroutines: plans are
// immutable and the pooled state is per call.
func TestConcurrentUse(t *testing.T) {
	p := benchPlan(t)
	body := benchBody(4 << 10)
	r := xmlstream.NewReader(body, xmlstream.Limits{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	want, err := p.XMLToJSON(nil, r, "/Body")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				w := xmlstream.NewWriter(nil)
				if err := p.JSONToXML(w, want); err != nil {
					t.Error(err)
					return
				}
				r := xmlstream.NewReader([]byte(testBodyStart+string(w.Bytes())+"</soapenv:Body>"), xmlstream.Limits{})
				if _, err := r.Next(); err != nil {
					t.Error(err)
					return
				}
				got, err := p.XMLToJSON(nil, r, "/Body")
				if err != nil || string(got) != string(want) {
					t.Errorf("concurrent round trip: %v\n%s", err, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
