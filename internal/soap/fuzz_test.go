package soap

import (
	"slices"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/golden"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// seedSection passes the named section of every golden file to add.
func seedSection(f *testing.F, name string, add func(string)) {
	for _, in := range golden.Seeds(f, "testdata/*.txt", name) {
		add(in)
	}
}

// FuzzParseEnvelope parses arbitrary input: no panic, offsets in range, and
// a parsed fault written again parses to the same reason and, for a class
// code, the same code and subcodes.
func FuzzParseEnvelope(f *testing.F) {
	seedSection(f, "envelope", func(s string) { f.Add([]byte(s)) })
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, xmlstream.Limits{})
		checkHead(t, data, m, err)
		if err != nil {
			return
		}
		if m.BodyStart > m.BodyEnd || m.BodyEnd > len(data) || m.FirstStart > m.FirstEnd || m.FirstEnd > len(data) {
			t.Fatalf("offsets out of range: %+v", m)
		}
		for _, h := range m.Headers {
			_ = m.Raw(h)
		}
		if _, err := m.BodyReader(); err != nil {
			t.Fatalf("BodyReader: %v", err)
		}
		if m.Fault == nil {
			return
		}
		w := xmlstream.NewWriter(nil)
		if err := WriteFaultEnvelope(w, m.Version, m.Fault); err != nil {
			t.Fatal(err)
		}
		again, err := Parse(w.Bytes(), xmlstream.Limits{})
		if err != nil {
			t.Fatalf("rewritten fault does not parse: %v\n%s", err, w.Bytes())
		}
		if again.Fault == nil || again.Fault.Reason != m.Fault.Reason {
			t.Fatalf("rewritten fault differs: %+v vs %+v", again.Fault, m.Fault)
		}
		// A class code keeps its class and subcodes (what safe exposure shows).
		if m.Fault.Class() != "" && (again.Fault.CodeName() != m.Fault.CodeName() ||
			!slices.Equal(again.Fault.SubcodeNames(), m.Fault.SubcodeNames())) {
			t.Fatalf("rewritten fault code differs: %s %v vs %s %v\n%s", again.Fault.CodeName(), again.Fault.SubcodeNames(),
				m.Fault.CodeName(), m.Fault.SubcodeNames(), w.Bytes())
		}
	})
}

// FuzzMTOM inlines arbitrary packages: no panic, and the output respects
// the limit.
func FuzzMTOM(f *testing.F) {
	var cts []string
	seedSection(f, "content-type", func(s string) { cts = append(cts, strings.TrimSpace(s)) })
	i := 0
	seedSection(f, "mtom", func(s string) {
		if i < len(cts) {
			f.Add(cts[i], []byte(strings.ReplaceAll(s, "\n", "\r\n")))
		}
		i++
	})
	f.Fuzz(func(t *testing.T, ct string, body []byte) {
		const limit = 1 << 16
		out, _, err := InlineMTOM(ct, body, limit, xmlstream.Limits{})
		if err == nil && len(out) > limit {
			t.Fatalf("output of %d bytes over the limit", len(out))
		}
	})
}

// checkHead compares the streaming ParseHead path with Parse.
func checkHead(t *testing.T, data []byte, full *Message, fullErr error) {
	m, r, err := ParseHead(data, xmlstream.Limits{})
	if err != nil {
		if fullErr == nil {
			t.Fatalf("ParseHead failed where Parse succeeded: %v", err)
		}
		return
	}
	if m.FaultAhead(r) {
		f, err := m.ReadFault(r)
		if fullErr == nil && (err != nil || full.Fault == nil || f.Reason != full.Fault.Reason) {
			t.Fatalf("ReadFault = %+v, %v; Parse fault %+v", f, err, full.Fault)
		}
		return
	}
	if fullErr == nil && full.Fault != nil {
		t.Fatalf("FaultAhead missed the fault of %q", data)
	}
	for r.Depth() >= 2 {
		depth := r.Depth()
		tok, err := r.Next()
		if err != nil {
			return
		}
		if tok.Kind == xmlstream.CharData && depth == 2 && !blank(tok.Data) {
			return // text in the Body: a converter refuses it, like Parse
		}
	}
	if err := FinishBody(r); (err == nil) != (fullErr == nil) {
		t.Fatalf("FinishBody = %v, Parse = %v", err, fullErr)
	}
}
