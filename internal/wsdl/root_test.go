package wsdl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// rootFixture reads every file of testdata/rootzip/dir, by its name.
func rootFixture(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join("testdata", "rootzip", dir))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("testdata", "rootzip", dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// wsdlDoc is a minimal WSDL importing locations, with a service or not.
func wsdlDoc(service bool, imports ...string) []byte {
	s := `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:x">`
	for _, loc := range imports {
		s += `<import namespace="urn:x" location="` + loc + `"/>`
	}
	if service {
		s += `<service name="S"/>`
	}
	return []byte(s + `</definitions>`)
}

func TestFindRoot(t *testing.T) {
	xsdDoc := []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:include schemaLocation="../wsdl/api.wsdl"/></xs:schema>`)
	many := map[string][]byte{}
	for i := range 12 {
		many[fmt.Sprintf("s%02d.wsdl", i)] = wsdlDoc(true)
	}
	tests := []struct {
		name    string
		files   map[string][]byte
		want    string
		wantErr string
	}{
		{name: "single", files: map[string][]byte{"calc.wsdl": wsdlDoc(true), "types/a.xsd": xsdDoc}, want: "calc.wsdl"},
		{name: "upper case extension", files: map[string][]byte{"Calc.WSDL": wsdlDoc(false)}, want: "Calc.WSDL"},
		{name: "not imported wins", files: map[string][]byte{"a.wsdl": wsdlDoc(true), "b.wsdl": wsdlDoc(true, "a.wsdl")}, want: "b.wsdl"},
		{name: "imported through a relative path", files: map[string][]byte{
			"wsdl/api.wsdl": wsdlDoc(true), "wsdl/root.wsdl": wsdlDoc(true, "./api.wsdl")}, want: "wsdl/root.wsdl"},
		{name: "imported by a schema", files: map[string][]byte{
			"wsdl/api.wsdl": wsdlDoc(true), "wsdl/main.wsdl": wsdlDoc(true), "xsd/t.xsd": xsdDoc}, want: "wsdl/main.wsdl"},
		{name: "service preferred", files: map[string][]byte{"abstract.wsdl": wsdlDoc(false), "concrete.wsdl": wsdlDoc(true)}, want: "concrete.wsdl"},
		{name: "xml by content", files: map[string][]byte{"service.xml": wsdlDoc(true, "parts.wsdl"), "parts.wsdl": wsdlDoc(false),
			"notes.xml": []byte("<notes/>")}, want: "service.xml"},
		{name: "shallowest last", files: map[string][]byte{"main.wsdl": wsdlDoc(true), "old/legacy.wsdl": wsdlDoc(true)}, want: "main.wsdl"},
		{name: "broken .wsdl is a candidate", files: map[string][]byte{"broken.wsdl": []byte("<definitions"), "a.xsd": xsdDoc}, want: "broken.wsdl"},
		{name: "none", files: map[string][]byte{"a.xsd": xsdDoc, "readme.txt": []byte("hello")},
			wantErr: `no single root WSDL: the archive holds no WSDL document (files: "a.xsd", "readme.txt")`},
		{name: "tie", files: map[string][]byte{"b.wsdl": wsdlDoc(true), "a.wsdl": wsdlDoc(true), "x/c.wsdl": wsdlDoc(true)},
			wantErr: `no single root WSDL: 2 WSDL files could each be the root (none imports the others, and they are alike in declaring a wsdl:service and in directory depth); name the root with rootPath: "a.wsdl", "b.wsdl"`},
		{name: "many listed briefly", files: many,
			wantErr: `no single root WSDL: 12 WSDL files could each be the root (none imports the others, and they are alike in declaring a wsdl:service and in directory depth); name the root with rootPath: "s00.wsdl", "s01.wsdl", "s02.wsdl", "s03.wsdl", "s04.wsdl", "s05.wsdl", "s06.wsdl", "s07.wsdl", "s08.wsdl", "s09.wsdl" and 2 more`},
		{name: "fixture: cross imports, root saved as .xml", files: rootFixture(t, "crossimport"), want: "Service.xml"},
		{name: "fixture: root and part import each other", files: rootFixture(t, "cycle"), want: "Main.wsdl"},
		{name: "fixture: genuine tie", files: rootFixture(t, "tie"),
			wantErr: `no single root WSDL: 2 WSDL files could each be the root (none imports the others, and they are alike in declaring a wsdl:service and in directory depth); name the root with rootPath: "Alpha.wsdl", "Beta.wsdl"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FindRoot(tt.files)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v\nwant    %s", err, tt.wantErr)
				}
				if !errors.Is(err, ErrNoRoot) {
					t.Error("error does not wrap ErrNoRoot")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("root = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFindRootFixturesImport: the root found imports with the other files.
func TestFindRootFixturesImport(t *testing.T) {
	for dir, ops := range map[string]int{"crossimport": 1, "cycle": 1} {
		files := rootFixture(t, dir)
		root, err := FindRoot(files)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := ParseFiles(t.Context(), root, files)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if got := len(defs.Operations()); got != ops {
			t.Errorf("%s: %d operations, want %d", dir, got, ops)
		}
	}
}
