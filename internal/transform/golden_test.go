package transform

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden applies each testdata/golden/NAME.rules.json (decoded the way
// the admin API decodes stored rules, numbers as json.Number) to
// NAME.input.json and compares with NAME.want.json.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "golden", "*.input.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		base := strings.TrimSuffix(in, ".input.json")
		t.Run(filepath.Base(base), func(t *testing.T) {
			prog, err := Compile(readRules(t, base+".rules.json"))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := prog.Apply(doc)
			if err != nil {
				t.Fatal(err)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, got, "", "  "); err != nil {
				t.Fatal(err)
			}
			pretty.WriteByte('\n')
			wantFile := base + ".want.json"
			if *update {
				if err := os.WriteFile(wantFile, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Errorf("output differs from %s (run with -update to accept):\n%s", wantFile, pretty.Bytes())
			}
		})
	}
}

func readRules(t *testing.T, name string) []Rule {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var rules []Rule
	if err := dec.Decode(&rules); err != nil {
		t.Fatal(err)
	}
	return rules
}
