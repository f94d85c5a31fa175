package convert

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// TestCorpus compiles plans and JSON Schemas for every message of every
// importable corpus WSDL, and round-trips a generated sample document
// through JSON→XML→JSON.
func TestCorpus(t *testing.T) {
	dir := wsdlcorpus.Dir(t)
	var paths []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".wsdl") {
			paths = append(paths, path)
		}
		return nil
	})
	ops := 0
	for _, path := range paths {
		rel, _ := filepath.Rel(dir, path)
		parts := strings.SplitN(filepath.ToSlash(rel), "/", 2)
		defs, err := wsdl.Parse(context.Background(), xsd.DirLoader{Root: filepath.Join(dir, parts[0])}, parts[1], xmlstream.Limits{})
		if err != nil {
			continue // import failures are the importer's tests' business
		}
		for _, op := range defs.Operations() {
			ops++
			msgs := []*xsd.Message{op.Input, op.Output}
			for _, f := range op.Faults {
				msgs = append(msgs, f.Message)
			}
			for _, m := range msgs {
				if m == nil {
					continue
				}
				t.Run(rel+"/"+op.Name+"/"+m.Name.Local, func(t *testing.T) {
					checkCorpusMessage(t, m, op.Use == xsd.Encoded)
				})
			}
		}
	}
	if ops == 0 {
		t.Fatal("no operation imported from the corpus")
	}
}

func checkCorpusMessage(t *testing.T, m *xsd.Message, encoded bool) {
	p, err := Compile(m, Options{Encoded: encoded})
	if err != nil {
		t.Skipf("not convertible: %v", err)
	}
	schema := compileJSONSchema(t, m)
	sample := sampleObject(p.root, 0)
	c := &goldenCase{plan: p}
	w := xmlstream.NewWriter(nil)
	if err := p.JSONToXML(w, []byte(sample)); err != nil {
		t.Fatalf("sample %s: %v", sample, err)
	}
	body := string(w.Bytes())
	if p.wrapper == nil && len(p.root.members) == 0 {
		return
	}
	out, err := c.bodyJSON(body)
	if err != nil {
		t.Fatalf("XML→JSON of %s: %v", body, err)
	}
	validateSample(t, schema, out)
	if !sameJSON(decodeJSON(t, []byte(sample)), decodeJSON(t, out), true) {
		t.Errorf("round trip changed the sample:\n in  %s\n xml %s\n out %s", sample, body, out)
	}
}

// TestCorpusSchemas runs the same checks for every global element with a
// complex type of every schema-only corpus file, as a wrapped message.
func TestCorpusSchemas(t *testing.T) {
	dir := wsdlcorpus.Dir(t)
	var paths []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".xsd") {
			paths = append(paths, path)
		}
		return nil
	})
	n := 0
	for _, path := range paths {
		rel, _ := filepath.Rel(dir, path)
		parts := strings.SplitN(filepath.ToSlash(rel), "/", 2)
		set := xsd.NewSet(xsd.Loaders{xsd.BuiltinLoader{}, xsd.DirLoader{Root: filepath.Join(dir, parts[0])}}, xmlstream.Limits{})
		ctx := context.Background()
		if set.LoadSchema(ctx, parts[1]) != nil || set.Finish(ctx) != nil {
			continue
		}
		for _, name := range set.Elements() {
			el, err := set.Element(name)
			if err != nil || el.Type == nil || el.Type.Simple != nil || el.Abstract {
				continue
			}
			n++
			t.Run(rel+"/"+name.Local, func(t *testing.T) {
				checkCorpusMessage(t, &xsd.Message{Name: name, Wrapped: true, Wrapper: el}, false)
			})
		}
	}
	if n == 0 {
		t.Fatal("no element compiled from the corpus schemas")
	}
}

// validateSample validates the converted sample, ignoring failures of
// string facets the generated sample cannot know how to satisfy.
func validateSample(t *testing.T, s *jsonschema.Schema, j []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Validate(v)
	if err == nil {
		return
	}
	for _, line := range strings.Split(err.Error(), "\n")[1:] {
		if !strings.Contains(line, "does not match pattern") && !strings.Contains(line, "length must be") {
			t.Errorf("converted sample does not validate against the message's JSON Schema: %v\n%s", err, j)
			return
		}
	}
}
