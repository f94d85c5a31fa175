// Package wsdltest loads operations of the shared WSDL corpus for the tests
// of the packages that work on contracts (catalog, admin), so each test
// names the file and operation it needs instead of parsing it itself.
//
// The package is for tests only.
package wsdltest

import (
	"context"
	"path"
	"testing"

	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
	"github.com/s2r-project/s2r/internal/xsd"
)

// CorpusOperation parses the single-file corpus WSDL rel and returns its
// operation name in service and port ("" matches any). It skips t when the
// corpus is absent and fails it when the file does not parse or has no such
// operation.
func CorpusOperation(t testing.TB, rel, service, port, name string) *xsd.Operation {
	t.Helper()
	base := path.Base(rel)
	defs, err := wsdl.ParseFiles(context.Background(), base, map[string][]byte{base: wsdlcorpus.Read(t, rel)})
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	op, ok := defs.Operation(service, port, name)
	if !ok {
		t.Fatalf("%s: no operation %s", rel, name)
	}
	return op
}
