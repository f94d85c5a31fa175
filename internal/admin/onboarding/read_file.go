package onboarding

import (
	"context"

	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// ReadFile parses one file, a WSDL or a ZIP of a WSDL and its XSDs,
// exactly as the upload import (POST /wsdl/import, …/import:autopilot)
// reads it: a ZIP is read within the import limits and its root chosen by
// wsdl.FindRoot unless rootPath names it; a single WSDL is the root under
// the base name of filename. References the file set does not hold are
// asked of more, tried in order (none: refused, as the server refuses
// them in an upload). Errors are the server's: 400 S2R-VAL-0400 naming
// the file, line and reason.
func ReadFile(ctx context.Context, filename string, data []byte, rootPath string, more ...xsd.Loader) (*wsdl.Definitions, error) {
	src, err := sourceFromUpload(filename, data, rootPath)
	if err != nil {
		return nil, err
	}
	if len(more) > 0 {
		src.loader = append(xsd.Loaders{src.loader}, more...)
	}
	return parseDefinitions(ctx, src)
}
