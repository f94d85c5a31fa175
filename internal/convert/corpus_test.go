package convert

import (
	"bytes"
	"context"
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
	ops := 0
	for _, rel := range wsdlcorpus.WSDLs(t) {
		root, name := wsdlcorpus.Project(t, rel)
		defs, err := wsdl.Parse(context.Background(), xsd.DirLoader{Root: root}, name, xmlstream.Limits{})
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
	out, err := c.bodyJSON(body, nil)
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
	n := 0
	for _, rel := range wsdlcorpus.Files(t, ".xsd") {
		root, name := wsdlcorpus.Project(t, rel)
		set := xsd.NewSet(xsd.Loaders{xsd.BuiltinLoader{}, xsd.DirLoader{Root: root}}, xmlstream.Limits{})
		ctx := context.Background()
		if set.LoadSchema(ctx, name) != nil || set.Finish(ctx) != nil {
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
