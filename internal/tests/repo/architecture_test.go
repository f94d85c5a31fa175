package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryPackage fails when a package under internal/
// (or cmd/) is not named in docs/architecture.md, so the map of the house
// cannot fall behind the house.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "../../../internal/...", "../../../cmd/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if !strings.Contains(string(doc), "`"+rel+"`") {
			t.Errorf("docs/architecture.md does not name package `%s`: add it to the package map", rel)
		}
	}
}
