package console

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/web"
)

// TestVendoredFiles checks every vendored library file against the SHA-256
// that scripts/vendor-web.sh recorded in vendor/VENDOR.txt when it copied
// it from the integrity-checked npm tarball: a hand edit fails here, and
// every package carries its licence.
func TestVendoredFiles(t *testing.T) {
	files := web.Console()
	lock, err := fs.ReadFile(files, "vendor/VENDOR.txt")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{"VENDOR.txt": true}
	var packages []string
	sc := bufio.NewScanner(strings.NewReader(string(lock)))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "  "):
			f := strings.Fields(line)
			if len(f) != 2 {
				t.Fatalf("bad VENDOR.txt line %q", line)
			}
			b, err := fs.ReadFile(files, "vendor/"+f[1])
			if err != nil {
				t.Errorf("vendored %s: %v", f[1], err)
				continue
			}
			sum := sha256.Sum256(b)
			if got := hex.EncodeToString(sum[:]); got != f[0] {
				t.Errorf("vendor/%s has SHA-256 %s, VENDOR.txt says %s: refresh it with scripts/vendor-web.sh, never by hand", f[1], got, f[0])
			}
			listed[f[1]] = true
		default:
			f := strings.Fields(line)
			if len(f) != 3 || !strings.HasPrefix(f[2], "sha512-") {
				t.Fatalf("bad VENDOR.txt package line %q", line)
			}
			packages = append(packages, f[0])
		}
	}
	for _, p := range packages {
		if !listed["LICENSE."+p] {
			t.Errorf("package %s has no vendored LICENSE.%s", p, p)
		}
	}
	entries, _ := fs.ReadDir(files, "vendor")
	for _, e := range entries {
		if !listed[e.Name()] {
			t.Errorf("vendor/%s is not in VENDOR.txt", e.Name())
		}
	}
}
