package contracts

import (
	"context"
	"fmt"
	"sync"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Parse parses a stored artifact: its root WSDL and imports, all served
// from the artifact's own files (see Files), so a stored contract never
// reaches the network again.
func Parse(ctx context.Context, a model.Artifact) (*wsdl.Definitions, error) {
	return wsdl.Parse(ctx, Files(a.Files), a.RootPath, xmlstream.Limits{})
}

// Files is an xsd.Loader over the files of an artifact. A location that is
// a key of the map is served as is (the absolute URLs recorded by URL
// imports); any other location is resolved as a relative path inside the
// set like xsd.FileSet (ZIP, upload and pasted imports).
type Files map[string][]byte

var _ xsd.Loader = Files(nil)

// Load returns the file at location.
func (f Files) Load(ctx context.Context, location string) ([]byte, string, error) {
	if data, ok := f[location]; ok {
		return data, location, nil
	}
	return xsd.FileSet(f).Load(ctx, location)
}

// Recorder wraps a loader and keeps every document it served under the
// location it was resolved to, so an import can store exactly the files it
// read (for a URL import: the root WSDL and every remote import, by URL).
// It is safe for concurrent use.
type Recorder struct {
	Loader xsd.Loader

	mu    sync.Mutex
	files map[string][]byte
}

var _ xsd.Loader = (*Recorder)(nil)

// Load loads location through the wrapped loader and records the result.
func (r *Recorder) Load(ctx context.Context, location string) ([]byte, string, error) {
	data, resolved, err := r.Loader.Load(ctx, location)
	if err != nil {
		return nil, "", err
	}
	if resolved == "" {
		resolved = location
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.files == nil {
		r.files = map[string][]byte{}
	}
	if old, dup := r.files[resolved]; dup && string(old) != string(data) {
		return nil, "", fmt.Errorf("%s: served twice with different content", resolved)
	}
	r.files[resolved] = data
	return data, resolved, nil
}

// Files returns the documents recorded so far.
func (r *Recorder) Files() map[string][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string][]byte, len(r.files))
	for k, v := range r.files {
		out[k] = v
	}
	return out
}
