package onboarding

import (
	"archive/zip"
	"bytes"
	"context"
	"path"
	"strings"
	"testing"
)

// FuzzImportUpload feeds arbitrary uploads through the import path up to
// the parsed contract: ZIP detection, safe ZIP reading, the root rule and
// WSDL parsing must answer an error, never panic.
func FuzzImportUpload(f *testing.F) {
	f.Add("a.wsdl", []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:x"/>`), "")
	f.Add("../../x.wsdl", []byte(`<description xmlns="http://www.w3.org/ns/wsdl"/>`), "")
	f.Add("z.zip", zipOf(f, map[string][]byte{"a.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><import location="b.xsd"/></definitions>`), "b.xsd": []byte("<x/>")}), "")
	f.Add("z.zip", zipOf(f, map[string][]byte{"../evil.wsdl": []byte("<a/>")}), "")
	f.Add("z.zip", []byte("PK\x03\x04garbage"), "a.wsdl")
	// Undeclared prefixes: conventional ones, one bound in another file of
	// the ZIP (q), one unknown (acme).
	f.Add("p.wsdl", []byte(`<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:p"><wsp:Policy wsu:Id="x"/>`+
		`<wsdl:message name="M"><wsdl:part name="p" element="acme:E"/></wsdl:message><wsdl:binding name="B" type="tns:P"><soap:binding/></wsdl:binding></wsdl:definitions>`), "")
	f.Add("z.zip", zipOf(f, map[string][]byte{"a.wsdl": []byte(`<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"><wsdl:import location="b.wsdl"/><wsdl:types><q:schema/></wsdl:types></wsdl:definitions>`),
		"b.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:q="http://www.w3.org/2001/XMLSchema"/>`)}), "a.wsdl")
	f.Fuzz(func(t *testing.T, name string, data []byte, root string) {
		src, err := sourceFromUpload(name, data, root)
		if err != nil {
			return
		}
		if src.root == "" || src.files[src.root] == nil {
			t.Fatalf("root %q not in the file set", src.root)
		}
		s := New(Config{})
		_, _ = s.parseSource(context.Background(), src)
	})
}

// FuzzImportPaths checks the path helpers of imports and repair packages:
// accepted relative paths are clean, package paths never escape the
// package, and relative paths between package paths resolve back.
func FuzzImportPaths(f *testing.F) {
	f.Add("types/a.xsd", "http://h:8080/a/b/c.xsd?x=1&y=2", "external/h/a")
	f.Add("../x", "https://h/", ".")
	f.Add("a//b", "http://[::1]/../../etc/passwd", "builtin")
	f.Fuzz(func(t *testing.T, rel, rawURL, dir string) {
		if checkRelativePath(rel) == "" && (path.Clean(rel) != rel || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/")) {
			t.Fatalf("accepted unclean path %q", rel)
		}
		if name := cleanUploadName(rel); strings.Contains(name, "/") || name == ".." {
			t.Fatalf("upload name %q from %q", name, rel)
		}
		p := remotePackagePath(rawURL)
		if !strings.HasPrefix(p, "external/") || path.Clean(p) != p || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") {
			t.Fatalf("package path %q from %q", p, rawURL)
		}
		if checkRelativePath(dir) != "" {
			return
		}
		if got := path.Clean(path.Join(dir, relativePath(dir, p))); got != p {
			t.Fatalf("relativePath(%q, %q) resolves to %q", dir, p, got)
		}
	})
}

// zipOf builds a ZIP of the given entries (names as given, even hostile).
func zipOf(t testing.TB, entries map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range entries {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
