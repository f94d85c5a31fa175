package xmlstream

import (
	"strings"
	"testing"
)

// TestConcurrentReaders exercises the shared intern tables from many
// goroutines (run with -race).
func TestConcurrentReaders(t *testing.T) {
	docs := [][]byte{soapEnvelope(4 << 10), []byte(`<x:a xmlns:x="urn:x" b="1"><x:c/></x:a>`)}
	done := make(chan error)
	for g := range 8 {
		go func() {
			var err error
			for i := range 50 {
				doc := docs[(g+i)%len(docs)]
				if _, e := readAll(string(doc), Limits{}); e != nil {
					err = e
				}
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestInternBounds checks that long names and namespace URIs are read
// correctly and stay out of the shared tables.
func TestInternBounds(t *testing.T) {
	longName := strings.Repeat("n", maxSharedName+1)
	longURI := "urn:" + strings.Repeat("u", maxSharedURI)
	doc := "<p:" + longName + " xmlns:p='" + longURI + "'/>"
	got, err := readAll(doc, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "start {" + longURI + "}" + longName; !strings.HasPrefix(got[0], want) {
		t.Errorf("start = %.80s", got[0])
	}
	shared.RLock()
	_, nameShared := shared.names["p:"+longName]
	_, uriShared := shared.uris[longURI]
	shared.RUnlock()
	if nameShared || uriShared {
		t.Errorf("long entries in the shared tables: name %v, URI %v", nameShared, uriShared)
	}
}
