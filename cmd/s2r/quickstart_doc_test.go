package main

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The addresses docs/quickstart.md shows, which the test replaces with its
// demo's: s2r, the calculator backend and the quote backend.
const (
	docS2R        = "127.0.0.1:8080"
	docCalculator = "127.0.0.1:41234"
	docQuotes     = "127.0.0.1:41235"
)

// docBlock is one fenced block of a Markdown document.
type docBlock struct {
	lang, body string
	line       int // of the opening fence
}

// fencedBlocks are the ```sh and ```text blocks of a Markdown file.
func fencedBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []docBlock
	var cur *docBlock
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &docBlock{lang: strings.TrimPrefix(line, "```"), line: n}
		case cur != nil && line == "```":
			if cur.lang == "sh" || cur.lang == "text" {
				blocks = append(blocks, *cur)
			}
			cur = nil
		case cur != nil:
			cur.body += line + "\n"
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// demoAddresses reads s2r's and the backends' addresses from the demo's
// instructions.
func demoAddresses(t *testing.T, out string) *strings.Replacer {
	t.Helper()
	find := func(re string) string {
		m := regexp.MustCompile(re).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no %s in the demo's output:\n%s", re, out)
		}
		return m[1]
	}
	return strings.NewReplacer(
		docS2R, find(`http://(127\.0\.0\.1:\d+)/console/`),
		docCalculator, find(`calculator, SOAP 1\.1: http://(127\.0\.0\.1:\d+)/calculator`),
		docQuotes, find(`quotes, JSON REST: +http://(127\.0\.0\.1:\d+)/quotes`))
}

// blockEnd separates the outputs of the blocks in the script's output.
const blockEnd = "@@quickstart-block-end@@"

// TestQuickstartDocument runs docs/quickstart.md against a live demo. The
// document's rules, which it states: its first ```sh block starts the
// demo — the test starts it in-process instead, on a free port, and the
// ```text block after it must equal the demo's output; every other ```sh
// block runs, in order, in one bash session (set -euo pipefail) in an empty
// directory; a ```text block right after one of them lists lines its
// output must contain. The document's addresses (docS2R, docCalculator,
// docQuotes) are replaced with the demo's in commands and outputs.
func TestQuickstartDocument(t *testing.T) {
	for _, tool := range []string{"/usr/bin/curl", "/usr/bin/jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s", tool)
		}
	}
	blocks := fencedBlocks(t, "../../docs/quickstart.md")
	if len(blocks) < 3 || blocks[0].body != "make demo\n" || blocks[1].lang != "text" {
		t.Fatalf("the document must start with a ```sh block `make demo` and its ```text output")
	}
	out, stop := startDemo(t, map[string]string{"S2R_LISTEN_ADDR": "127.0.0.1:0", "S2R_DATA_DIR": t.TempDir()})
	defer stop()
	addrs := demoAddresses(t, out)
	if want := addrs.Replace(strings.Trim(blocks[1].body, "\n")); strings.Trim(out, "\n") != want {
		t.Errorf("quickstart.md line %d: the demo's output differs; it prints:\n%s\nthe document (its addresses replaced) shows:\n%s",
			blocks[1].line, out, want)
	}

	var script strings.Builder
	script.WriteString("set -euo pipefail\n")
	var commands []docBlock
	for _, b := range blocks[2:] {
		if b.lang == "sh" {
			script.WriteString(addrs.Replace(b.body) + "echo " + blockEnd + "\n")
			commands = append(commands, b)
		}
	}
	cmd := exec.Command("bash", "-c", script.String())
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	raw, err := cmd.CombinedOutput()
	outputs := strings.Split(string(raw), blockEnd+"\n")
	if err != nil {
		failed := commands[min(len(outputs)-1, len(commands)-1)]
		t.Fatalf("quickstart.md line %d: %v\n%s\noutput:\n%s", failed.line, err, failed.body, outputs[len(outputs)-1])
	}
	checkDocOutputs(t, blocks[2:], outputs, addrs)
}

// checkDocOutputs checks that the output of each ```sh block contains the
// lines of the ```text block that follows it.
func checkDocOutputs(t *testing.T, blocks []docBlock, outputs []string, addrs *strings.Replacer) {
	t.Helper()
	n := 0
	for i, b := range blocks {
		if b.lang != "sh" {
			if i == 0 || blocks[i-1].lang != "sh" {
				t.Errorf("quickstart.md line %d: a ```text block that follows no ```sh block", b.line)
			}
			continue
		}
		got := outputs[n]
		n++
		if i+1 >= len(blocks) || blocks[i+1].lang != "text" {
			continue
		}
		for _, want := range strings.Split(strings.TrimSpace(blocks[i+1].body), "\n") {
			if want = addrs.Replace(strings.TrimSpace(want)); !strings.Contains(got, want) {
				t.Errorf("quickstart.md line %d: the output of\n%s\nlacks %s; it is:\n%s", b.line, b.body, want, got)
			}
		}
	}
}
