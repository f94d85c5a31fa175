package soap

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/golden"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// TestGolden drives every testdata/*.txt case: "envelope" files are
// parsed, "mtom" files are inlined then parsed, "write" files describe an
// envelope to write, which is then parsed back.
func TestGolden(t *testing.T) {
	golden.Run(t, "testdata/*.txt", func(t *testing.T, path string, g *golden.File) {
		var got string
		kind := g.Names[0]
		if _, ok := g.Sections["mtom"]; ok {
			kind = "mtom"
		}
		switch kind {
		case "envelope":
			got = dumpParse([]byte(g.Get(t, "envelope")))
		case "mtom":
			got = runMTOM(t, g)
		case "write":
			got = runWrite(t, g)
		default:
			t.Fatalf("unknown case kind %q", g.Names[0])
		}
		g.Check(t, path, got)
	})
}

func dumpParse(data []byte) string {
	m, err := Parse(data, xmlstream.Limits{})
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "version: %s\n", m.Version)
	for _, h := range m.Headers {
		fmt.Fprintf(&b, "header: %s mustUnderstand=%v role=%q\n  %s\n", name(h.Name), h.MustUnderstand, h.Role, m.Raw(h))
	}
	if m.Addressing != (Addressing{}) {
		a := m.Addressing
		fmt.Fprintf(&b, "addressing: action=%q messageID=%q relatesTo=%q replyTo=%q to=%q\n", a.Action, a.MessageID, a.RelatesTo, a.ReplyTo, a.To)
	}
	fmt.Fprintf(&b, "first: %s\n", name(m.First))
	if m.First.Local != "" {
		fmt.Fprintf(&b, "first-raw: %s\n", data[m.FirstStart:m.FirstEnd])
	}
	fmt.Fprintf(&b, "body: %s\n", m.Body())
	if f := m.Fault; f != nil {
		var subs []string
		for _, s := range f.Subcodes {
			subs = append(subs, name(s))
		}
		fmt.Fprintf(&b, "fault: code=%s class=%q subcodes=%v reason=%q lang=%q node=%q role=%q\n", name(f.Code), f.Class(), subs, f.Reason, f.Lang, f.Node, f.Role)
		fmt.Fprintf(&b, "fault-detail: %s\n", f.Detail)
		fmt.Fprintf(&b, "fault-json: %s\n", f.AppendJSON(nil, nil))
	}
	return b.String()
}

func name(n xmlstream.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + n.Space + "}" + n.Local
}

func runMTOM(t *testing.T, g *golden.File) string {
	ct := strings.TrimSpace(g.Get(t, "content-type"))
	body := strings.ReplaceAll(g.Get(t, "mtom"), "\n", "\r\n")
	limit := int64(0)
	if s, ok := g.Sections["limit"]; ok {
		fmt.Sscan(s, &limit)
	}
	env, v, err := InlineMTOM(ct, []byte(body), limit, xmlstream.Limits{})
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("inline-version: %s\nenvelope: %s\n%s", v, env, dumpParse(env))
}

// writeCase is the JSON description of an envelope to write.
type writeCase struct {
	Version       string
	EncodingStyle string
	Addressing    *Addressing
	Headers       []string
	Namespaces    []NSDecl
	Body          string
	Fault         *struct {
		Code     xmlstream.Name
		Subcodes []xmlstream.Name
		Reason   string
		Lang     string
		Node     string
		Role     string
		Detail   string
	}
}

func runWrite(t *testing.T, g *golden.File) string {
	var c writeCase
	if err := json.Unmarshal([]byte(g.Get(t, "write")), &c); err != nil {
		t.Fatal(err)
	}
	v, err := ParseVersion(c.Version)
	if err != nil {
		t.Fatal(err)
	}
	env := Envelope{Version: v, Addressing: c.Addressing, Namespaces: c.Namespaces, EncodingStyle: c.EncodingStyle}
	for _, h := range c.Headers {
		env.Headers = append(env.Headers, []byte(h))
	}
	w := xmlstream.NewWriter(nil)
	err = Write(w, env, func(w *xmlstream.Writer) error {
		if c.Fault != nil {
			f := c.Fault
			WriteFault(w, v, &Fault{Code: f.Code, Subcodes: f.Subcodes, Reason: f.Reason, Lang: f.Lang, Node: f.Node, Role: f.Role, Detail: []byte(f.Detail)})
			return nil
		}
		w.Raw([]byte(c.Body))
		return nil
	})
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("xml: %s\ncontent-type: %s\n%s", w.Bytes(), v.ContentType("urn:act"), dumpParse(w.Bytes()))
}

func TestVersionDetection(t *testing.T) {
	tests := []struct {
		ct   string
		want Version
		err  bool
	}{
		{ct: "text/xml; charset=utf-8", want: V11},
		{ct: `application/soap+xml; charset=utf-8; action="urn:a"`, want: V12},
		{ct: `multipart/related; type="application/xop+xml"; start="<root>"; start-info="application/soap+xml"; boundary=b`, want: V12},
		{ct: `multipart/related; type="application/xop+xml"; start-info="text/xml"; boundary=b`, want: V11},
		{ct: "application/json", err: true},
		{ct: "", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.ct, func(t *testing.T) {
			v, err := VersionFromContentType(tt.ct)
			if (err != nil) != tt.err || v != tt.want {
				t.Errorf("VersionFromContentType(%q) = %v, %v", tt.ct, v, err)
			}
			if err != nil && !errors.Is(err, ErrUnknownVersion) && tt.ct != "" {
				t.Errorf("error %v is not ErrUnknownVersion", err)
			}
		})
	}
}

func TestAction(t *testing.T) {
	tests := []struct{ ct, header, want string }{
		{"text/xml", `"urn:GetX"`, "urn:GetX"},
		{"text/xml", ``, ""},
		{`application/soap+xml; action="urn:Get"`, ``, "urn:Get"},
		{`application/soap+xml`, `urn:fallback`, "urn:fallback"},
		{`multipart/related; type="application/xop+xml"; start-info="application/soap+xml; action=\"urn:m\""; boundary=x`, ``, "urn:m"},
	}
	for _, tt := range tests {
		if got := Action(tt.ct, tt.header); got != tt.want {
			t.Errorf("Action(%q, %q) = %q, want %q", tt.ct, tt.header, got, tt.want)
		}
	}
}

func TestBodyReader(t *testing.T) {
	env := `<s:Envelope xmlns:s="` + NS11 + `" xmlns:t="urn:t"><s:Header><t:h>1</t:h></s:Header><s:Body><t:Get><t:id>1</t:id></t:Get></s:Body></s:Envelope>`
	m, err := Parse([]byte(env), xmlstream.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.BodyReader()
	if err != nil {
		t.Fatal(err)
	}
	tok, err := r.Next()
	if err != nil || tok.Kind != xmlstream.StartElement || tok.Name != (xmlstream.Name{Space: "urn:t", Local: "Get"}) {
		t.Fatalf("first body token = %+v, %v", tok, err)
	}
}

func TestHeaderReader(t *testing.T) {
	env := `<s:Envelope xmlns:s="` + NS11 + `" xmlns:t="urn:t"><s:Header><t:h>1</t:h></s:Header><s:Body/></s:Envelope>`
	m, err := Parse([]byte(env), xmlstream.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.HeaderReader()
	if err != nil {
		t.Fatal(err)
	}
	tok, err := r.Next()
	if err != nil || tok.Name != (xmlstream.Name{Space: "urn:t", Local: "h"}) {
		t.Fatalf("first header token = %+v, %v", tok, err)
	}
	m, _ = Parse([]byte(`<s:Envelope xmlns:s="`+NS11+`"><s:Body/></s:Envelope>`), xmlstream.Limits{})
	if r, err := m.HeaderReader(); r != nil || err != nil {
		t.Fatalf("HeaderReader without Header = %v, %v", r, err)
	}
}
