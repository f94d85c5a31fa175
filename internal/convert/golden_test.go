package convert

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the want sections of golden files")

// golden is a test file of named sections: lines "-- name --" start a
// section; text before the first one is a comment.
type golden struct {
	comment  string
	names    []string
	sections map[string]string
}

func readGolden(t *testing.T, path string) *golden {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := &golden{sections: map[string]string{}}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur == "" {
			g.comment = b.String()
		} else {
			g.sections[cur] = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		trim := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trim, "-- ") && strings.HasSuffix(trim, " --") && len(trim) > 6 {
			flush()
			cur = trim[3 : len(trim)-3]
			g.names = append(g.names, cur)
			continue
		}
		b.WriteString(line)
	}
	flush()
	return g
}

func (g *golden) get(t *testing.T, name string) string {
	t.Helper()
	s, ok := g.sections[name]
	if !ok {
		t.Fatalf("missing section %q", name)
	}
	return s
}

// check compares got with the want section, or rewrites it with -update.
func (g *golden) check(t *testing.T, path, got string) {
	t.Helper()
	if !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	if *update {
		if _, ok := g.sections["want"]; !ok {
			g.names = append(g.names, "want")
		}
		g.sections["want"] = got
		var b strings.Builder
		b.WriteString(g.comment)
		for _, n := range g.names {
			b.WriteString("-- " + n + " --\n")
			b.WriteString(g.sections[n])
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(g.sections["want"], got); diff != "" {
		t.Errorf("%s: mismatch (-want +got):\n%s", path, diff)
	}
}
