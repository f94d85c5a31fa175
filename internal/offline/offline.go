// Package offline computes what s2r's offline commands print, with no
// database and no network: the OpenAPI document the server generates for
// an import (s2r openapi) and the drift between two imports of a WSDL
// (s2r drift). It runs the server's own code, not a copy of it: the
// upload import's reading (onboarding.ReadFile), autopilot's plan
// (onboarding.PlanServices), the version document (openapi.NewInput,
// openapi.Generate) and the drift classification (catalog.Drift).
//
// Typical use:
//
//	f, err := offline.ReadFile("calc.wsdl", offline.Sources{})
//	docs, err := offline.OpenAPI(ctx, f, offline.OpenAPIOptions{Environment: "dev"})
//	report, err := offline.Drift(ctx, oldFile, newFile)
package offline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/s2r-project/s2r/internal/admin/onboarding"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// File is a contract given on the command line: a WSDL, or a ZIP of a
// WSDL and its XSDs, with where its other references are read from.
type File struct {
	// Name is the file's name as given (its base name is the root's name).
	Name string
	// Data is the file's content.
	Data []byte
	// RootPath names the root WSDL inside a ZIP ("": chosen as the server
	// chooses it, wsdl.FindRoot).
	RootPath string
	// More serve the references the file itself does not hold, in order;
	// none: such references are refused, as in an upload to the server.
	More []xsd.Loader
}

// Sources says where ReadFile lets a contract's references come from.
type Sources struct {
	// RootPath names the root WSDL inside a ZIP ("": wsdl.FindRoot).
	RootPath string
	// Fetch, when set, serves http and https references (s2r openapi
	// --allow-fetch); nil refuses them.
	Fetch xsd.Loader
}

// ReadFile reads the contract at path. A single WSDL's relative
// references are read from its folder and below it (as an import with
// those files beside the root would send them); a ZIP must hold its own.
func ReadFile(path string, src Sources) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", path, err)
	}
	f := File{Name: path, Data: data, RootPath: src.RootPath}
	if !onboarding.IsZIP(data) {
		f.More = append(f.More, xsd.DirLoader{Root: filepath.Dir(path)})
	}
	if src.Fetch != nil {
		f.More = append(f.More, src.Fetch)
	}
	return f, nil
}

// parse reads f as the server's upload import does.
func (f File) parse(ctx context.Context) (*wsdl.Definitions, error) {
	defs, err := onboarding.ReadFile(ctx, filepath.Base(f.Name), f.Data, f.RootPath, f.More...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return defs, nil
}
