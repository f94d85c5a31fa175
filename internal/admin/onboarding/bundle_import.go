package onboarding

import (
	"context"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// ArtifactFromFiles parses and compiles a WSDL given as files (the root at
// root, its imports by the paths they use), as an import of pasted XML
// does, and returns the artifact to store, made by by at now, with its
// contract. A contract that does not import is 400 S2R-VAL-0400 naming
// the file and reason. The bundle apply (internal/admin/bundle) imports
// the WSDL files of a bundle's service with it.
func ArtifactFromFiles(ctx context.Context, root string, files map[string][]byte, by string, now time.Time) (model.Artifact, *wsdl.Definitions, error) {
	src := &importSource{kind: model.ArtifactXML, root: root, files: files, loader: xsd.FileSet(files)}
	h := &Handlers{now: func() time.Time { return now }}
	p, err := h.parseSource(ctx, src)
	if err != nil {
		return model.Artifact{}, nil, err
	}
	p.artifact.CreatedBy = by
	return p.artifact, p.defs, nil
}
