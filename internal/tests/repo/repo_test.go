// Package repo checks the repository itself: what no single package's
// tests would notice, such as merge-conflict markers committed in docs.
package repo

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoConflictMarkers fails when a tracked text file holds a line that
// git writes for an unresolved merge conflict.
func TestNoConflictMarkers(t *testing.T) {
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	top := strings.TrimSpace(string(root))
	out, err := exec.Command("git", "-C", top, "ls-files", "-z").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if strings.Contains(name, "/testdata/") || strings.HasPrefix(name, "web/vendor/") {
			continue // fixtures may hold anything; vendored files are checked against npm
		}
		data, err := os.ReadFile(filepath.Join(top, name))
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			continue // gone from the work tree, or binary
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<22)
		for line := 1; sc.Scan(); line++ {
			l := sc.Text()
			if strings.HasPrefix(l, "<<<<<<< ") || strings.HasPrefix(l, ">>>>>>> ") || l == "=======" && strings.HasSuffix(name, ".go") {
				t.Errorf("%s:%d: merge-conflict marker %q", name, line, l)
			}
		}
	}
}
