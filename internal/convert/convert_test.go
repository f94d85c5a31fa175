package convert

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/golden"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// TestGolden drives every testdata/*.txt case. A case holds schema files
// (sections named *.xsd), a "message" section selecting the message and
// options, and either a "json" input (JSON→XML) or an "xml" input (the Body
// content, XML→JSON); "want" is the output or "error: …". Successful
// XML→JSON cases are also converted back and forth to check the round trip.
func TestGolden(t *testing.T) {
	golden.Run(t, "testdata/*.txt", func(t *testing.T, path string, g *golden.File) {
		c := loadCase(t, g)
		var got string
		if in, ok := g.Sections["json"]; ok {
			got = c.toXML(strings.TrimSpace(in))
			if c.schema != nil && !strings.HasPrefix(got, "error: ") {
				validateJSON(t, c.schema, []byte(in), "accepted JSON input")
			}
		} else {
			got = c.toJSON(t, strings.TrimSpace(g.Get(t, "xml")))
		}
		g.Check(t, path, got)
	})
}

// goldenCase is a compiled golden case.
type goldenCase struct {
	plan   *Plan // nil in naive mode
	naive  bool
	schema *jsonschema.Schema
}

func loadCase(t *testing.T, g *golden.File) *goldenCase {
	t.Helper()
	files := map[string][]byte{}
	for name, body := range g.Sections {
		if strings.HasSuffix(name, ".xsd") {
			files[name] = []byte(body)
		}
	}
	lines := strings.Split(strings.TrimSpace(g.Get(t, "message")), "\n")
	fields := strings.Fields(lines[0])
	opts := Options{}
	for _, l := range lines[1:] {
		for _, o := range strings.Fields(strings.TrimPrefix(l, "options:")) {
			switch o {
			case "encoded":
				opts.Encoded = true
			case "lax":
				opts.Lax = true
			default:
				if pre, uri, ok := strings.Cut(o, "="); ok {
					if opts.Prefixes == nil {
						opts.Prefixes = map[string]string{}
					}
					opts.Prefixes[uri] = pre
				}
			}
		}
	}
	if fields[0] == "naive" {
		return &goldenCase{naive: true}
	}
	if fields[0] == "wsdl" {
		return wsdlCase(t, g, fields, opts)
	}
	set, err := xsd.CompileSchemas(files)
	if err != nil {
		t.Fatalf("schemas: %v", err)
	}
	msg := buildMessage(t, set, fields)
	p, err := Compile(msg, opts)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return &goldenCase{plan: p, schema: compileJSONSchema(t, msg)}
}

// buildMessage builds the message described by "wrapped {ns}El",
// "bare part=element:{ns}El …" or "rpc {ns}Op part=type:xs:int …".
func buildMessage(t *testing.T, set *xsd.Set, f []string) *xsd.Message {
	t.Helper()
	msg := &xsd.Message{}
	switch f[0] {
	case "wrapped":
		el, err := set.Element(parseName(f[1]))
		if err != nil {
			t.Fatal(err)
		}
		msg.Wrapped, msg.Wrapper = true, el
		return msg
	case "rpc":
		n := parseName(f[1])
		msg.Wrapper = &xsd.Element{Name: n}
		msg.Namespace = n.Space
		f = f[1:]
	case "bare":
	default:
		t.Fatalf("unknown message kind %q", f[0])
	}
	for _, p := range f[1:] {
		name, ref, _ := strings.Cut(p, "=")
		kind, qn, _ := strings.Cut(ref, ":")
		part := &xsd.Part{Name: name}
		var err error
		if kind == "element" {
			part.Element, err = set.Element(parseName(qn))
		} else {
			part.Type, err = set.Type(parseName(qn))
		}
		if err != nil {
			t.Fatal(err)
		}
		msg.Parts = append(msg.Parts, part)
	}
	return msg
}

func parseName(s string) xmlstream.Name {
	if strings.HasPrefix(s, "xs:") {
		return xmlstream.Name{Space: NSXSD, Local: s[3:]}
	}
	if strings.HasPrefix(s, "{") {
		ns, local, _ := strings.Cut(s[1:], "}")
		return xmlstream.Name{Space: ns, Local: local}
	}
	return xmlstream.Name{Local: s}
}

func (c *goldenCase) toXML(in string) string {
	w := xmlstream.NewWriter(nil)
	var err error
	if c.naive {
		err = NaiveJSONToXML(w, []byte(in))
	} else {
		err = c.plan.JSONToXML(w, []byte(in))
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return string(w.Bytes())
}

const testBodyStart = `<soapenv:Body xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">`

// bodyJSON converts body content wrapped in a soapenv:Body; a Lax plan
// notes its deviations in dev when dev is not nil.
func (c *goldenCase) bodyJSON(body string, dev *Deviations) ([]byte, error) {
	r := xmlstream.NewReader([]byte(testBodyStart+body+"</soapenv:Body>"), xmlstream.Limits{})
	if _, err := r.Next(); err != nil {
		return nil, err
	}
	if c.naive {
		return NaiveXMLToJSON(nil, r, "/Envelope/Body")
	}
	if dev != nil {
		return c.plan.XMLToJSONNoting(nil, r, "/Envelope/Body", dev)
	}
	return c.plan.XMLToJSON(nil, r, "/Envelope/Body")
}

// toJSON converts in; for a Lax plan the output is followed by one
// "deviation <path>: <reason>" line per deviation noted.
func (c *goldenCase) toJSON(t *testing.T, in string) string {
	lax := !c.naive && c.plan.opts.Lax
	var dev *Deviations
	if lax {
		dev = &Deviations{Max: 100}
	}
	out, err := c.bodyJSON(in, dev)
	if err != nil {
		return "error: " + err.Error()
	}
	if !c.naive && !lax {
		c.checkRoundTrip(t, out)
	}
	if c.schema != nil && (!lax || dev.Found == 0) {
		validateJSON(t, c.schema, out, "XML→JSON output")
	}
	got := string(out)
	if lax {
		if dev.Found != len(dev.List) {
			t.Errorf("found %d deviations, listed %d", dev.Found, len(dev.List))
		}
		for _, d := range dev.List {
			got += "\ndeviation " + d.Path + ": " + d.Reason
		}
	}
	return got
}

// checkRoundTrip converts JSON produced by XMLToJSON back to XML and again
// to JSON, which must give the same JSON.
func (c *goldenCase) checkRoundTrip(t *testing.T, j []byte) {
	t.Helper()
	w := xmlstream.NewWriter(nil)
	if err := c.plan.JSONToXML(w, j); err != nil {
		t.Errorf("round trip: JSON→XML of %s: %v", j, err)
		return
	}
	back, err := c.bodyJSON(string(w.Bytes()), nil)
	if err != nil {
		t.Errorf("round trip: XML→JSON of %s: %v", w.Bytes(), err)
		return
	}
	if diff := cmp.Diff(decodeJSON(t, j), decodeJSON(t, back)); diff != "" {
		t.Errorf("round trip changed the JSON (-first +again):\n%s", diff)
	}
}

// decodeJSON decodes j with numbers kept as their text, so that member
// order does not matter but number forms do.
func decodeJSON(t *testing.T, j []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", j, err)
	}
	return v
}

// wsdlCase imports the WSDL section named by "wsdl <file> <operation>
// input|output|fault:<name>" and compiles that message (for a fault, its
// xsd.Fault.DetailMessage) with the operation's use.
func wsdlCase(t *testing.T, g *golden.File, f []string, opts Options) *goldenCase {
	t.Helper()
	files := map[string][]byte{}
	for name, body := range g.Sections {
		if strings.HasSuffix(name, ".wsdl") || strings.HasSuffix(name, ".xsd") {
			files[name] = []byte(body)
		}
	}
	defs, err := wsdl.ParseFiles(context.Background(), f[1], files)
	if err != nil {
		t.Fatalf("wsdl: %v", err)
	}
	for _, op := range defs.Operations() {
		if op.Name != f[2] {
			continue
		}
		var msg *xsd.Message
		switch {
		case f[3] == "input":
			msg = op.Input
		case f[3] == "output":
			msg = op.Output
		case strings.HasPrefix(f[3], "fault:"):
			for _, fl := range op.Faults {
				if fl.Name == f[3][6:] {
					msg = fl.DetailMessage() // as routing compiles it
				}
			}
		}
		if msg == nil {
			t.Fatalf("operation %s has no %s message", op.Name, f[3])
		}
		opts.Encoded = opts.Encoded || op.Use == xsd.Encoded
		p, err := Compile(msg, opts)
		if err != nil {
			t.Fatalf("compile: %v", err)
		}
		return &goldenCase{plan: p, schema: compileJSONSchema(t, msg)}
	}
	t.Fatalf("no operation %s", f[2])
	return nil
}
