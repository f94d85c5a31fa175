// Package console serves the admin console, a browser client of the
// /admin/v1 API, from files embedded in the binary (package web).
//
// Paths: /console/static/<hash>/<file> serves a file with a year-long
// immutable cache lifetime, where <hash> is derived from every file's
// content, so a new build changes every asset URL; any other /console/…
// path serves the application page (no-cache, revalidated by ETag), which
// routes in the browser — the deep links /console/services/{id} and so on.
// Every answer carries a strict Content-Security-Policy (scripts and styles
// only from this origin, no inline script, no framing) and nosniff.
package console

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/apierr"
)

// Prefix is the path of the console.
const Prefix = "/console"

// staticDir is the path segment under Prefix of the hashed file tree.
const staticDir = "/static/"

// indexFile is the application page; staticPlaceholder in it is replaced
// with the hashed static prefix.
const (
	indexFile         = "index.html"
	staticPlaceholder = "{{static}}"
)

// ContentSecurityPolicy is sent with every console answer. connect-src
// 'self': the console talks to /admin/v1 on its own origin only.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// asset is one file ready to serve.
type asset struct {
	body, gzipped []byte // gzipped is nil when it would not be smaller
	contentType   string
	etag          string
}

// Handler serves the console.
type Handler struct {
	static string            // "/console/static/<hash>/"
	files  map[string]*asset // by path below the static prefix
	index  *asset
}

// New reads every file of files (index.html at its root) into memory.
func New(files fs.FS) (*Handler, error) {
	raw := map[string][]byte{}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		raw[p] = b
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("console: read files: %w", err)
	}
	page, ok := raw[indexFile]
	if !ok {
		return nil, fmt.Errorf("console: %s is missing", indexFile)
	}
	delete(raw, indexFile)
	h := &Handler{static: Prefix + staticDir + treeHash(raw, page) + "/", files: map[string]*asset{}}
	for p, b := range raw {
		h.files[p] = newAsset(p, b)
	}
	page = bytes.ReplaceAll(page, []byte(staticPlaceholder), []byte(strings.TrimSuffix(h.static, "/")))
	h.index = newAsset(indexFile, page)
	return h, nil
}

// StaticPrefix returns the hashed prefix of the console's files.
func (h *Handler) StaticPrefix() string { return h.static }

// treeHash is a short hash over every path and content.
func treeHash(files map[string][]byte, page []byte) string {
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	slices.Sort(names)
	sum := sha256.New()
	sum.Write(page)
	for _, p := range names {
		fmt.Fprintf(sum, "\x00%s\x00%d\x00", p, len(files[p]))
		sum.Write(files[p])
	}
	return hex.EncodeToString(sum.Sum(nil))[:16]
}

func newAsset(name string, body []byte) *asset {
	sum := sha256.Sum256(body)
	a := &asset{body: body, contentType: contentType(name), etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	if compressible(a.contentType) {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		if buf.Len() < len(body) {
			a.gzipped = buf.Bytes()
		}
	}
	return a
}

// contentType chooses the media type by extension; JavaScript modules
// must be served as JavaScript or the browser refuses them (nosniff).
func contentType(name string) string {
	switch path.Ext(name) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".json":
		return "application/json"
	case ".txt", "":
		return "text/plain; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func compressible(ct string) bool {
	return strings.HasPrefix(ct, "text/") || strings.HasPrefix(ct, "application/json") || ct == "image/svg+xml"
}

// ServeHTTP serves the console's paths.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	apierr.AdminHandlerFunc(h.serve).ServeHTTP(w, r)
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) error {
	setSecurityHeaders(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		return apierr.New(apierr.AdmMethodNotAllowed, "the console answers GET and HEAD only").
			WithDetail("allowed", []string{"GET", "HEAD"})
	}
	p := r.URL.Path
	if p == Prefix {
		http.Redirect(w, r, Prefix+"/", http.StatusPermanentRedirect)
		return nil
	}
	if strings.HasPrefix(p, Prefix+staticDir) {
		return h.serveStatic(w, r, p)
	}
	w.Header().Set("Cache-Control", "no-cache")
	h.write(w, r, h.index)
	return nil
}

// serveStatic serves a hashed file. A file of another build's hash is not
// served: caching it under that URL forever would be wrong.
func (h *Handler) serveStatic(w http.ResponseWriter, r *http.Request, p string) error {
	name, ok := strings.CutPrefix(p, h.static)
	a := h.files[name]
	if !ok || a == nil {
		return apierr.New(apierr.AdmNotFound, "no console file at this path").WithDetail("path", p)
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	h.write(w, r, a)
	return nil
}

// write answers a with its ETag (304 when the client has it) and gzip
// when the client accepts it.
func (h *Handler) write(w http.ResponseWriter, r *http.Request, a *asset) {
	hdr := w.Header()
	hdr.Set("Content-Type", a.contentType)
	hdr.Set("ETag", a.etag)
	hdr.Set("Vary", "Accept-Encoding")
	if etagMatch(r.Header.Get("If-None-Match"), a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gzipped != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = a.gzipped
		hdr.Set("Content-Encoding", "gzip")
	}
	hdr.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// etagMatch reports whether an If-None-Match value names etag.
func etagMatch(header, etag string) bool {
	for v := range strings.SplitSeq(header, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == etag || v == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding value allows gzip.
func acceptsGzip(header string) bool {
	for v := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(v), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
