package zipset

import (
	"errors"
	"fmt"
	"testing"
)

func names(n ...string) map[string][]byte {
	m := map[string][]byte{}
	for _, s := range n {
		m[s] = nil
	}
	return m
}

func TestFindRootWSDL(t *testing.T) {
	many := names()
	for i := range 12 {
		many[fmt.Sprintf("s%02d.wsdl", i)] = nil
	}
	tests := []struct {
		name    string
		files   map[string][]byte
		want    string
		wantErr string
	}{
		{name: "single", files: names("calc.wsdl", "types/a.xsd"), want: "calc.wsdl"},
		{name: "upper case extension", files: names("Calc.WSDL", "a.xsd"), want: "Calc.WSDL"},
		{name: "shallowest wins", files: names("wsdl/main.wsdl", "wsdl/parts/binding.wsdl", "wsdl/parts/types.xsd"), want: "wsdl/main.wsdl"},
		{name: "root beside nested", files: names("service.wsdl", "imports/common.wsdl"), want: "service.wsdl"},
		{name: "none", files: names("a.xsd", "readme.txt"),
			wantErr: `no single root WSDL: the archive holds no .wsdl file (files: "a.xsd", "readme.txt")`},
		{name: "empty", files: names(),
			wantErr: `no single root WSDL: the archive holds no .wsdl file (files: none)`},
		{name: "ambiguous", files: names("b.wsdl", "a.wsdl", "x/c.wsdl"),
			wantErr: `no single root WSDL: 2 .wsdl files share the shallowest level, so the root is ambiguous; keep only the root WSDL there: "a.wsdl", "b.wsdl"`},
		{name: "ambiguous nested", files: names("v1/a.wsdl", "v2/b.wsdl"),
			wantErr: `no single root WSDL: 2 .wsdl files share the shallowest level, so the root is ambiguous; keep only the root WSDL there: "v1/a.wsdl", "v2/b.wsdl"`},
		{name: "many listed briefly", files: many,
			wantErr: `no single root WSDL: 12 .wsdl files share the shallowest level, so the root is ambiguous; keep only the root WSDL there: "s00.wsdl", "s01.wsdl", "s02.wsdl", "s03.wsdl", "s04.wsdl", "s05.wsdl", "s06.wsdl", "s07.wsdl", "s08.wsdl", "s09.wsdl" and 2 more`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FindRootWSDL(tt.files)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v\nwant    %s", err, tt.wantErr)
				}
				if !errors.Is(err, ErrNoRootWSDL) {
					t.Error("error does not wrap ErrNoRootWSDL")
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
