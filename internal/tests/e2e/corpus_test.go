package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// corpusExpectations pins the outcome of every corpus WSDL: "" imports;
// otherwise a substring of the 400's reason (wsdlcorpus.ImportFailures,
// shared with the interop tests).
var corpusExpectations = wsdlcorpus.ImportFailures

// TestCorpusOnboarding onboards every corpus WSDL through the DESIGN 8
// autopilot (multi-file ones with files) and, for each success, checks
// publish-readiness, activation, OpenAPI generation, the OpenAPI document
// (valid, X-OpenAPI-SHA256 equal to the body's SHA-256) and its package
// (checksums.json matches the entries). A draft that is BLOCKED must be
// pinned in wsdlcorpus.BlockedDrafts with its blocking issue, and its
// activation is refused. Failures must be 400 S2R-VAL-0400 with a reason,
// never a 500.
func TestCorpusOnboarding(t *testing.T) {
	dir := corpusDir(t)
	wsdls := wsdlcorpus.WSDLs(t)
	forEachBackend(t, func(t *testing.T, s *server) {
		var table []string
		for i, rel := range wsdls {
			row := onboardCorpusWSDL(t, s, dir, rel, fmt.Sprintf("c%02d", i))
			table = append(table, fmt.Sprintf("%-80s %s", rel, row))
		}
		t.Logf("corpus onboarding:\n%s", strings.Join(table, "\n"))
	})
}

func onboardCorpusWSDL(t *testing.T, s *server, dir, rel, key string) string {
	t.Helper()
	xml, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	files := wsdlcorpus.Siblings(t, rel)
	r := s.admin(t, "POST", "/wsdl/import-xml:autopilot", map[string]any{
		"xml": string(xml), "files": files, "environment": "dev", "serviceKey": key,
	})
	want, wantFail := corpusExpectations[rel]
	if r.Status != 201 {
		m := map[string]any{}
		_ = json.Unmarshal(r.Body, &m)
		reason := admintest.Dig(m, "error", "details", "reason")
		if r.Status != 400 || r.Code() != "S2R-VAL-0400" || reason == "" {
			t.Errorf("%s: %d %.500s, want 201 or a 400 S2R-VAL-0400 with a reason", rel, r.Status, r.Body)
		} else if !wantFail || !strings.Contains(reason, want) {
			t.Errorf("%s: unexpected 400 %.500s (expected %q)", rel, r.Body, want)
		}
		if strings.HasPrefix(reason, "catalog:") {
			t.Errorf("%s: the reason leaks a Go package prefix: %q", rel, reason)
		}
		if f := admintest.Dig(m, "error", "details", "field"); f == "wsdlPort" || f == "wsdlService" {
			t.Errorf("%s: the 400 blames field %s, which the request did not set: %.300s", rel, f, r.Body)
		}
		file := admintest.Dig(m, "error", "details", "file")
		line, _ := m["error"].(map[string]any)["details"].(map[string]any)["line"].(float64)
		return fmt.Sprintf("400 %s (file %q line %d)", reason, file, int(line))
	}
	if wantFail {
		t.Errorf("%s: imported, expected a 400 with %q", rel, want)
	}
	m := r.JSON(t)
	sid, vid := admintest.Dig(m, "service", "serviceId"), admintest.Dig(m, "version", "versionId")
	vpath := "/services/" + sid + "/versions/" + vid
	ready := s.admin(t, "GET", vpath+"/publish-readiness", nil).WantStatus(t, 200).JSON(t)
	status := admintest.Dig(ready, "status")
	if status != admintest.Dig(m, "publishReadiness", "status") {
		t.Errorf("%s: readiness %s, autopilot said %s", rel, status, admintest.Dig(m, "publishReadiness", "status"))
	}
	checkPrefixWarnings(t, rel, m, status)
	if blocked, want := blockedBy(ready), wsdlcorpus.BlockedDrafts[rel]; blocked != "" || want != "" {
		if !strings.Contains(blocked, want) || want == "" {
			t.Errorf("%s: readiness blocked by %q, expected %q", rel, blocked, want)
		}
		if ra := s.admin(t, "POST", vpath+":activate", nil); ra.Status != 409 {
			t.Errorf("%s: activate of a BLOCKED draft: %d %.300s", rel, ra.Status, ra.Body)
		}
		return "imported, BLOCKED by " + blocked
	}
	if ra := s.admin(t, "POST", vpath+":activate", nil); ra.Status != 200 {
		t.Errorf("%s: activate: %d %.500s", rel, ra.Status, ra.Body)
		return "imported, " + status + ", activate failed"
	}
	g := s.admin(t, "POST", vpath+":generate-openapi", nil)
	if g.Status != 200 && g.Status != 201 {
		t.Errorf("%s: generate-openapi: %d %.500s", rel, g.Status, g.Body)
		return "imported, " + status + ", activated, generate-openapi failed"
	}
	doc := s.admin(t, "GET", vpath+"/openapi", nil).WantStatus(t, 200)
	sum := sha256.Sum256(doc.Body)
	if h := doc.Header.Get("X-OpenAPI-SHA256"); h != hex.EncodeToString(sum[:]) || h != admintest.Dig(g.JSON(t), "sha256") {
		t.Errorf("%s: X-OpenAPI-SHA256 %q, body SHA-256 %x, generate said %q", rel, h, sum, admintest.Dig(g.JSON(t), "sha256"))
	}
	valid := "valid"
	loader := openapi3.NewLoader()
	kdoc, err := loader.LoadFromData(doc.Body)
	if err == nil {
		err = kdoc.Validate(context.Background())
	}
	if err != nil {
		t.Errorf("%s: OpenAPI document invalid: %v", rel, err)
		valid = "INVALID"
	} else {
		ops, _ := m["operations"].([]any)
		for _, op := range ops {
			if admintest.Dig(op, "serviceId") == sid && kdoc.Paths.Find(admintest.Dig(op, "restPath")) == nil {
				t.Errorf("%s: OpenAPI has no path %s", rel, admintest.Dig(op, "restPath"))
			}
		}
	}
	pkg := s.admin(t, "GET", vpath+"/openapi/package", nil).WantStatus(t, 200)
	checkPackage(t, rel, pkg.Body, doc.Body)
	return fmt.Sprintf("imported, %s, activated, OpenAPI %s", status, valid)
}

// prefixWarning matches an import warning about an undeclared prefix.
var prefixWarning = regexp.MustCompile(`undeclared namespace prefix "([^"]+)": (?:no known namespace[^:]*: )?read as "([^"]+)"`)

// checkPrefixWarnings compares the undeclared prefixes the import of rel
// read (its artifact's warnings) and its readiness with
// wsdlcorpus.UndeclaredPrefixes.
func checkPrefixWarnings(t *testing.T, rel string, autopilot map[string]any, readiness string) {
	t.Helper()
	got := map[string]string{}
	warnings, _ := autopilot["artifact"].(map[string]any)["warnings"].([]any)
	for _, w := range warnings {
		if sm := prefixWarning.FindStringSubmatch(fmt.Sprint(w)); sm != nil {
			got[sm[1]] = sm[2]
		}
	}
	want, pinned := wsdlcorpus.UndeclaredPrefixes[rel]
	if len(got) == 0 && !pinned {
		return
	}
	if !maps.Equal(got, want.Read) {
		t.Errorf("%s: undeclared prefixes read %v, want %v", rel, got, want.Read)
	}
	if readiness != want.Readiness {
		t.Errorf("%s: readiness %s, want %s", rel, readiness, want.Readiness)
	}
}

// blockedBy lists the codes of a readiness report's blocking issues,
// comma-separated ("" when there are none).
func blockedBy(report map[string]any) string {
	issues, _ := report["blockingIssues"].([]any)
	var codes []string
	for _, is := range issues {
		if c := admintest.Dig(is, "code"); !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	return strings.Join(codes, ",")
}

// checkPackage unzips the OpenAPI package and verifies checksums.json.
func checkPackage(t *testing.T, rel string, zipBody, openapiDoc []byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(zipBody), int64(len(zipBody)))
	if err != nil {
		t.Errorf("%s: package is not a ZIP: %v", rel, err)
		return
	}
	entries := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		entries[f.Name] = b
	}
	var sums struct {
		Algorithm string
		Files     map[string]string
	}
	if err := json.Unmarshal(entries["checksums.json"], &sums); err != nil || sums.Algorithm != "SHA-256" || len(sums.Files) == 0 {
		t.Errorf("%s: checksums.json: %v %s", rel, err, entries["checksums.json"])
		return
	}
	for name, want := range sums.Files {
		sum := sha256.Sum256(entries[name])
		if _, ok := entries[name]; !ok || hex.EncodeToString(sum[:]) != want {
			t.Errorf("%s: package entry %s: checksum mismatch or missing", rel, name)
		}
	}
	for name := range entries {
		if _, ok := sums.Files[name]; !ok && name != "checksums.json" {
			t.Errorf("%s: package entry %s has no checksum", rel, name)
		}
	}
	if !bytes.Equal(entries["openapi.json"], openapiDoc) {
		t.Errorf("%s: package openapi.json differs from GET …/openapi", rel)
	}
}
