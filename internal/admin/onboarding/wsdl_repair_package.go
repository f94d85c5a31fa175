package onboarding

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
	"github.com/s2r-project/s2r/internal/zipset"
)

// RepairManifestName is the report file added to every repair package.
const RepairManifestName = "s2r-repair-report.json"

// repairRewrite is one reference rewritten to a path inside the package.
type repairRewrite struct {
	File string `json:"file"`
	Line int    `json:"line"`
	From string `json:"from"`
	To   string `json:"to"`
}

// RepairManifest is the s2r-repair-report.json of a package.
type RepairManifest struct {
	RootPath         string            `json:"rootPath"`
	NamespaceRepairs []namespaceRepair `json:"namespaceRepairs"`
	Rewrites         []repairRewrite   `json:"rewrites"`
	Unresolved       []referenceView   `json:"unresolved"`
}

// postRepairPackage answers a ZIP with the repaired root WSDL, every
// submitted file (namespace declarations added), and every resolvable
// remote or built-in reference stored inside the package: remote documents
// under external/<host>/<path>, built-in schemas under builtin/. References
// that pointed at those URLs are rewritten to relative paths, so the ZIP
// imports offline. The manifest s2r-repair-report.json lists what changed
// and what could not be resolved.
func (s *Handlers) postRepairPackage(w http.ResponseWriter, r *http.Request) error {
	in, err := readRepairInput(w, r)
	if err != nil {
		return err
	}
	files, manifest, err := s.repairPackage(r.Context(), in)
	if err != nil {
		return err
	}
	mb, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	files[RepairManifestName] = mb
	zip, err := zipset.Write(files)
	if err != nil {
		return err
	}
	name := strings.TrimSuffix(path.Base(in.src.root), path.Ext(in.src.root))
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", `attachment; filename="`+SafeFileName(name)+`-repaired.zip"`)
	h.Set("Content-Length", strconv.Itoa(len(zip)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(zip)
	return nil
}

// repairPackage builds the files of the package and its manifest.
func (s *Handlers) repairPackage(ctx context.Context, in *repairInput) (map[string][]byte, RepairManifest, error) {
	preview, repaired, err := previewNamespaces(in.src.files)
	if err != nil {
		return nil, RepairManifest{}, err
	}
	files := make(map[string][]byte, len(repaired))
	for p, b := range repaired {
		files[p] = b
	}
	remote, err := s.remoteLoader(ctx, in.checkRemote)
	if err != nil {
		return nil, RepairManifest{}, err
	}
	var rec *contracts.Recorder
	loader := xsd.Loaders{xsd.FileSet(files)}
	if remote != nil {
		rec = &contracts.Recorder{Loader: remote}
		loader = append(loader, rec)
	}
	refs, err := wsdl.References(ctx, loader, in.src.root)
	if err != nil {
		return nil, RepairManifest{}, importError(err)
	}
	m := RepairManifest{RootPath: in.src.root, NamespaceRepairs: preview.Repairs, Rewrites: []repairRewrite{}, Unresolved: []referenceView{}}
	local := localizeDocuments(ctx, refs, rec, files)
	for _, ref := range refs {
		target, ok := local[ref.Resolved]
		if ref.Error != "" || (!ok && ref.Location != "" && ref.Resolved != "" && !ref.Builtin && isRemote(ref.Resolved)) {
			m.Unresolved = append(m.Unresolved, referenceView{From: redactLocation(ref.From), Line: ref.Line, Kind: ref.Kind,
				Namespace: ref.Namespace, Location: redactLocation(ref.Location), Status: referenceStatus(ref, remote != nil), Error: ref.Error})
			continue
		}
		if !ok || ref.Location == "" {
			continue
		}
		from := ref.From
		if p, ok := local[from]; ok {
			from = p
		}
		if _, ok := files[from]; !ok {
			continue
		}
		rel := relativePath(path.Dir(from), target)
		if next, changed := rewriteLocation(files[from], ref.Location, rel); changed {
			files[from] = next
			m.Rewrites = append(m.Rewrites, repairRewrite{File: from, Line: ref.Line, From: redactLocation(ref.Location), To: rel})
		}
	}
	return files, m, nil
}

// localizeDocuments adds every remote document fetched (rec) and every
// built-in schema referenced to files at package paths, and returns the
// package path of each such location.
func localizeDocuments(ctx context.Context, refs []wsdl.Reference, rec *contracts.Recorder, files map[string][]byte) map[string]string {
	local := map[string]string{}
	add := func(loc string, data []byte, p string) {
		for n := 2; ; n++ {
			if _, taken := files[p]; !taken {
				break
			}
			ext := path.Ext(p)
			p = strings.TrimSuffix(p, ext) + "-" + strconv.Itoa(n) + ext
		}
		files[p] = data
		local[loc] = p
	}
	if rec != nil {
		for loc, data := range rec.Files() {
			add(loc, data, remotePackagePath(loc))
		}
	}
	for _, ref := range refs {
		if !ref.Builtin || ref.Location == "" || local[ref.Resolved] != "" {
			continue
		}
		data, _, err := xsd.BuiltinLoader{}.Load(ctx, ref.Resolved)
		if err != nil {
			continue
		}
		name := path.Base(strings.TrimPrefix(ref.Resolved, "builtin:"))
		if path.Ext(name) == "" {
			name += ".xsd"
		}
		add(ref.Resolved, data, "builtin/"+SafeFileName(name))
	}
	return local
}

// remotePackagePath maps a URL to external/<host>/<path>, keeping the
// URL's directory structure so relative references between fetched
// documents still resolve; a query becomes part of the file name.
func remotePackagePath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "external/" + SafeFileName(raw)
	}
	p := strings.Trim(path.Clean("/"+u.Path), "/")
	if p == "" || strings.HasSuffix(u.Path, "/") {
		p = path.Join(p, "index")
	}
	if u.RawQuery != "" {
		p += "_" + u.RawQuery
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = SafeFileName(s)
	}
	p = strings.Join(segs, "/")
	if ext := strings.ToLower(path.Ext(p)); ext != ".xsd" && ext != ".wsdl" && ext != ".xml" {
		p += ".xml"
	}
	return "external/" + SafeFileName(u.Host) + "/" + p
}

// SafeFileName keeps letters, digits, '.', '-' and '_'; anything else
// becomes '_', and names made only of dots become '_'.
func SafeFileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	out := string(b)
	if strings.Trim(out, ".") == "" {
		return "_"
	}
	return out
}

// relativePath returns the slash path from directory dir to target (both
// relative to the package root).
func relativePath(dir, target string) string {
	var from []string
	if dir != "." && dir != "" {
		from = strings.Split(dir, "/")
	}
	to := strings.Split(target, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	parts := make([]string, 0, len(from)-i+len(to)-i)
	for range from[i:] {
		parts = append(parts, "..")
	}
	return strings.Join(append(parts, to[i:]...), "/")
}

// rewriteLocation replaces location="old" and schemaLocation="old" (either
// quote, raw or with & escaped) by the new value in an XML document.
func rewriteLocation(doc []byte, old, next string) ([]byte, bool) {
	changed := false
	for _, v := range []string{old, strings.ReplaceAll(old, "&", "&amp;")} {
		for _, attr := range []string{"schemaLocation", "location"} {
			for _, q := range []string{`"`, `'`} {
				from := []byte(attr + "=" + q + v + q)
				if bytes.Contains(doc, from) {
					doc = bytes.ReplaceAll(doc, from, []byte(attr+"="+q+next+q))
					changed = true
				}
			}
		}
	}
	return doc, changed
}
