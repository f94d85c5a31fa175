package xsd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
)

// Loader loads the document at an absolute location (a path inside a file
// set, or an http(s) URL) and returns its bytes and the location it was
// finally read from (which relative references are then resolved against).
type Loader interface {
	Load(ctx context.Context, location string) (data []byte, resolved string, err error)
}

// ErrNotFound is returned by loaders when a location does not exist.
var ErrNotFound = errors.New("not found")

// ResolveLocation resolves ref against the location of the document that
// refers to it. URLs resolve as URLs; everything else as slash-separated
// paths relative to the directory of base. The result of resolving a path
// that climbs above the root with "../" keeps the leading "../" so that
// loaders can refuse it.
func ResolveLocation(base, ref string) string {
	ref = strings.TrimSpace(ref)
	if isURL(ref) {
		return ref
	}
	if isURL(base) {
		b, err := url.Parse(base)
		if err != nil {
			return ref
		}
		r, err := url.Parse(ref)
		if err != nil {
			return ref
		}
		return b.ResolveReference(r).String()
	}
	ref = strings.ReplaceAll(ref, "\\", "/")
	if strings.HasPrefix(ref, "/") || isWindowsAbs(ref) {
		return ref
	}
	dir := path.Dir(strings.ReplaceAll(base, "\\", "/"))
	return cleanRelative(path.Join(dir, ref))
}

// cleanRelative cleans p like path.Clean while keeping it relative.
func cleanRelative(p string) string {
	p = path.Clean(p)
	return strings.TrimPrefix(p, "./")
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

func isWindowsAbs(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z')
}

// FileSet is an in-memory set of documents keyed by slash-separated path
// relative to the set's root: the files of a ZIP upload or of a multi-file
// import. Paths escaping the root and absolute paths are refused.
type FileSet map[string][]byte

var _ Loader = FileSet(nil)

// Load returns the file at location.
func (fs FileSet) Load(_ context.Context, location string) ([]byte, string, error) {
	if isURL(location) {
		return nil, "", fmt.Errorf("%s: %w", location, ErrNotFound)
	}
	p := strings.ReplaceAll(location, "\\", "/")
	if strings.HasPrefix(p, "/") || isWindowsAbs(p) {
		return nil, "", fmt.Errorf("%s: absolute file paths are not allowed", location)
	}
	p = cleanRelative(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return nil, "", fmt.Errorf("%s: location escapes the file set root", location)
	}
	if data, ok := fs[p]; ok {
		return data, p, nil
	}
	for name, data := range fs { // tolerate "./a.xsd" and "a\b.xsd" keys
		if cleanRelative(strings.ReplaceAll(name, "\\", "/")) == p {
			return data, p, nil
		}
	}
	if u, err := url.PathUnescape(p); err == nil && u != p { // "my%20types.xsd"
		if data, ok := fs[u]; ok {
			return data, u, nil
		}
	}
	return nil, "", fmt.Errorf("%s: %w", location, ErrNotFound)
}

// URLLoader loads http and https locations through the guarded fetcher of
// the control plane. It refuses every other location.
type URLLoader struct {
	Fetch func(ctx context.Context, url string) ([]byte, error)
	// FetchFinal, when set, is used instead of Fetch: it also returns the
	// URL finally read after redirects, which relative imports of the
	// document then resolve against.
	FetchFinal func(ctx context.Context, url string) (data []byte, finalURL string, err error)
}

var _ Loader = URLLoader{}

// Load fetches location.
func (u URLLoader) Load(ctx context.Context, location string) ([]byte, string, error) {
	if !isURL(location) || (u.Fetch == nil && u.FetchFinal == nil) {
		return nil, "", fmt.Errorf("%s: %w", location, ErrNotFound)
	}
	if u.FetchFinal != nil {
		data, final, err := u.FetchFinal(ctx, location)
		if err != nil {
			return nil, "", fmt.Errorf("fetch %s: %w", location, err)
		}
		if final == "" {
			final = location
		}
		return data, final, nil
	}
	data, err := u.Fetch(ctx, location)
	if err != nil {
		return nil, "", fmt.Errorf("fetch %s: %w", location, err)
	}
	return data, location, nil
}

// Loaders tries each loader in turn: the first that does not answer
// ErrNotFound wins.
type Loaders []Loader

var _ Loader = Loaders(nil)

// Load loads location from the first loader that has it.
func (ls Loaders) Load(ctx context.Context, location string) ([]byte, string, error) {
	err := fmt.Errorf("%s: %w", location, ErrNotFound)
	for _, l := range ls {
		data, resolved, lerr := l.Load(ctx, location)
		if lerr == nil {
			return data, resolved, nil
		}
		if !errors.Is(lerr, ErrNotFound) {
			return nil, "", lerr
		}
		err = lerr
	}
	return nil, "", err
}

// DirLoader loads documents from a directory tree; locations are
// slash-separated paths relative to Root and cannot escape it (os.Root).
type DirLoader struct {
	Root string
}

var _ Loader = DirLoader{}

// Load reads the file at location under Root.
func (d DirLoader) Load(_ context.Context, location string) ([]byte, string, error) {
	if isURL(location) {
		return nil, "", fmt.Errorf("%s: %w", location, ErrNotFound)
	}
	p := cleanRelative(strings.ReplaceAll(location, "\\", "/"))
	if strings.HasPrefix(p, "/") || isWindowsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
		return nil, "", fmt.Errorf("%s: location escapes the loader root", location)
	}
	root, err := os.OpenRoot(d.Root)
	if err != nil {
		return nil, "", fmt.Errorf("open %s: %w", d.Root, err)
	}
	defer root.Close()
	data, err := root.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("%s: %w", location, ErrNotFound)
	}
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", location, err)
	}
	return data, p, nil
}

// MemoLoader remembers what its loader answered per location, so that an
// import read more than once (RunPasses) fetches each document once. It
// is safe for concurrent use.
type MemoLoader struct {
	loader Loader
	mu     sync.Mutex
	loads  map[string]memoLoad
}

type memoLoad struct {
	data     []byte
	resolved string
	err      error
}

var _ Loader = (*MemoLoader)(nil)

// NewMemoLoader returns a MemoLoader over loader.
func NewMemoLoader(loader Loader) *MemoLoader {
	return &MemoLoader{loader: loader, loads: map[string]memoLoad{}}
}

// Load answers as the loader did for location, loading it the first time.
// A failure because ctx ended is not remembered.
func (m *MemoLoader) Load(ctx context.Context, location string) ([]byte, string, error) {
	m.mu.Lock()
	l, ok := m.loads[location]
	m.mu.Unlock()
	if ok {
		return l.data, l.resolved, l.err
	}
	data, resolved, err := m.loader.Load(ctx, location)
	if ctx.Err() == nil {
		m.mu.Lock()
		m.loads[location] = memoLoad{data, resolved, err}
		m.mu.Unlock()
	}
	return data, resolved, err
}
