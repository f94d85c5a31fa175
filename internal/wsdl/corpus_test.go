package wsdl

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/wsdlcorpus"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

var update = flag.Bool("update", false, "rewrite golden files")

// corpusFile is one corpus document: the folder it is loaded from (the
// owner+repo folder) and its path inside.
type corpusFile struct{ root, rel string }

// corpusFiles lists the corpus documents whose names end in ext, in the
// order of the golden file.
func corpusFiles(t testing.TB, ext string) []corpusFile {
	var out []corpusFile
	for _, rel := range wsdlcorpus.Files(t, ext) {
		root, name := wsdlcorpus.Project(t, rel)
		out = append(out, corpusFile{root: root, rel: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].root+out[i].rel < out[j].root+out[j].rel })
	return out
}

func TestCorpus(t *testing.T) {
	var b strings.Builder
	for _, f := range corpusFiles(t, ".wsdl") {
		fmt.Fprintf(&b, "== %s/%s\n", filepath.Base(f.root), f.rel)
		b.WriteString(importSummary(t, f))
	}
	for _, f := range corpusFiles(t, ".xsd") {
		fmt.Fprintf(&b, "== %s/%s (schema only)\n", filepath.Base(f.root), f.rel)
		b.WriteString(schemaSummary(t, f))
	}
	compareGolden(t, "testdata/corpus.golden", b.String())
}

func importSummary(t *testing.T, f corpusFile) string {
	loader := xsd.DirLoader{Root: f.root}
	defs, err := parseWithDeadline(t, loader, f.rel)
	if err == nil {
		if cerr := checkContracts(defs); cerr != nil {
			t.Errorf("%s: %v", f.rel, cerr)
		}
		return summarize(defs)
	}
	out := "error: " + err.Error() + "\n"
	if !strings.Contains(err.Error(), "undeclared") {
		return out
	}
	data, _, _ := loader.Load(context.Background(), f.rel)
	report, repaired, rerr := RepairNamespaces(map[string][]byte{f.rel: data})
	if rerr != nil {
		return out + "repair error: " + rerr.Error() + "\n"
	}
	out += report.String()
	defs, err = parseWithDeadline(t, xsd.Loaders{xsd.FileSet(repaired), loader}, f.rel)
	if err != nil {
		return out + "after repair: error: " + err.Error() + "\n"
	}
	return out + "after repair:\n" + summarize(defs)
}

func parseWithDeadline(t *testing.T, loader xsd.Loader, rel string) (*Definitions, error) {
	t.Helper()
	type result struct {
		defs *Definitions
		err  error
	}
	done := make(chan result, 1)
	go func() {
		d, err := Parse(context.Background(), loader, rel, xmlstream.Limits{})
		done <- result{d, err}
	}()
	select {
	case r := <-done:
		return r.defs, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: import did not finish in 20s", rel)
		return nil, errors.New("timeout")
	}
}

// testGroupTag matches the template wrapper elements of CXF's type_test.xsd,
// removed so that its definitions become top-level schema components.
var testGroupTag = regexp.MustCompile(`</?itst:it_test_group[^>]*>`)

func schemaSummary(t *testing.T, f corpusFile) string {
	ctx := context.Background()
	loader := xsd.Loader(xsd.DirLoader{Root: f.root})
	if strings.HasSuffix(f.rel, "type_test.xsd") {
		data, _, err := loader.Load(ctx, f.rel)
		if err != nil {
			t.Fatal(err)
		}
		loader = xsd.FileSet{f.rel: testGroupTag.ReplaceAll(data, nil)}
	}
	s := xsd.NewSet(loader, xmlstream.Limits{})
	err := s.LoadSchema(ctx, f.rel)
	if err == nil {
		err = s.Finish(ctx)
	}
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var failed []string
	ok := 0
	seen := map[*xsd.Type]bool{}
	for _, n := range s.Types() {
		if typ, err := s.Type(n); err != nil {
			failed = append(failed, err.Error())
		} else {
			ok++
			if cerr := checkType(typ, seen); cerr != nil {
				t.Errorf("%s: %v", f.rel, cerr)
			}
		}
	}
	for _, n := range s.Elements() {
		if _, err := s.Element(n); err != nil {
			failed = append(failed, err.Error())
		} else {
			ok++
		}
	}
	out := fmt.Sprintf("compiled: %d elements, %d types, %d failed\n", len(s.Elements()), len(s.Types()), len(failed))
	if len(failed) > 0 {
		out += "first error: " + failed[0] + "\n"
	}
	return out
}

// summarize renders services, ports and operations one per line.
func summarize(d *Definitions) string {
	var b strings.Builder
	printed := map[xmlstream.Name]string{}
	for _, s := range d.Services {
		fmt.Fprintf(&b, "service %s\n", s.Name)
		for _, p := range s.Ports {
			if p.Skipped != "" {
				fmt.Fprintf(&b, "  port %s skipped: %s\n", p.Name, p.Skipped)
				continue
			}
			fmt.Fprintf(&b, "  port %s SOAP %s binding %s address %q\n", p.Name, p.SOAPVersion, p.Binding.Local, p.Address)
			if first, ok := printed[p.Binding]; ok {
				fmt.Fprintf(&b, "    (%d operations, as port %s)\n", len(p.Operations), first)
				continue
			}
			printed[p.Binding] = s.Name + "/" + p.Name
			for _, op := range p.Operations {
				fmt.Fprintf(&b, "    %s %s action=%q in=%s out=%s%s%s\n", op.Name, styleUse(op), op.SOAPAction,
					messageSummary(op.Input), messageSummary(op.Output), faultSummary(op.Faults), mtomFlag(op.MTOM))
			}
		}
	}
	for _, w := range d.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

func faultSummary(fs []*xsd.Fault) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(" fault=" + f.Name)
	}
	return b.String()
}

func mtomFlag(m bool) string {
	if m {
		return " mtom"
	}
	return ""
}

func styleUse(op *xsd.Operation) string {
	s := map[xsd.Style]string{xsd.Document: "document", xsd.RPC: "rpc"}[op.Style]
	u := map[xsd.Use]string{xsd.Literal: "literal", xsd.Encoded: "encoded"}[op.Use]
	return s + "/" + u
}

// messageSummary renders a message compactly with local names:
// wrapped(Elem), bare(part=Elem part:type), rpc(Op)(part:type).
func messageSummary(m *xsd.Message) string {
	if m == nil {
		return "-"
	}
	var b strings.Builder
	switch {
	case m.Wrapped:
		b.WriteString("wrapped(" + m.Wrapper.Name.Local + ")")
	case m.Wrapper != nil:
		b.WriteString("rpc(" + m.Wrapper.Name.Local + ")(")
	default:
		b.WriteString("bare(")
	}
	if !m.Wrapped {
		for i, p := range m.Parts {
			if i > 0 {
				b.WriteString(" ")
			}
			if p.Element != nil {
				b.WriteString(p.Name + "=" + p.Element.Name.Local)
			} else if p.Type != nil {
				b.WriteString(p.Name + ":" + p.Type.Name.Local)
			}
		}
		b.WriteString(")")
	}
	for _, h := range m.Headers {
		if h.Element != nil {
			b.WriteString("+header(" + h.Element.Name.Local + ")")
		}
	}
	return b.String()
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}
