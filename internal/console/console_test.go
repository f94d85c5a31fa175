package console

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/s2r-project/s2r/web"
)

func testFiles() fstest.MapFS {
	return fstest.MapFS{
		"index.html":   {Data: []byte(`<script type="module" src="{{static}}/app.js"></script>`)},
		"app.js":       {Data: []byte(strings.Repeat("import './lib/x.js';\n", 40))},
		"lib/x.js":     {Data: []byte("export const x = 1;")},
		"style.css":    {Data: []byte("body{}")},
		"icon.svg":     {Data: []byte("<svg/>")},
		"vendor/a.mjs": {Data: []byte("export default 1")},
	}
}

func get(t *testing.T, h http.Handler, method, path string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPaths(t *testing.T) {
	h, err := New(testFiles())
	if err != nil {
		t.Fatal(err)
	}
	static := h.StaticPrefix()
	if !regexp.MustCompile(`^/console/static/[0-9a-f]{16}/$`).MatchString(static) {
		t.Fatalf("static prefix %q", static)
	}
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantType           string
		wantCache          string
		wantBody           string
	}{
		{"app page", "GET", "/console/", 200, "text/html; charset=utf-8", "no-cache", `src="` + static + `app.js"`},
		{"deep link", "GET", "/console/services/0190-abc", 200, "text/html; charset=utf-8", "no-cache", "<script"},
		{"any other path", "GET", "/console/nothing/here.txt", 200, "text/html; charset=utf-8", "no-cache", "<script"},
		{"head", "HEAD", "/console/audit", 200, "text/html; charset=utf-8", "no-cache", ""},
		{"module", "GET", static + "app.js", 200, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", "import"},
		{"nested module", "GET", static + "lib/x.js", 200, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", "export"},
		{"vendored mjs", "GET", static + "vendor/a.mjs", 200, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", "export"},
		{"css", "GET", static + "style.css", 200, "text/css; charset=utf-8", "public, max-age=31536000, immutable", "body"},
		{"svg", "GET", static + "icon.svg", 200, "image/svg+xml", "public, max-age=31536000, immutable", "<svg"},
		{"missing file", "GET", static + "nope.js", 404, "application/json", "", "S2R-ADM-0404"},
		{"old build", "GET", "/console/static/0000000000000000/app.js", 404, "application/json", "", "S2R-ADM-0404"},
		{"index is not a static file", "GET", static + "index.html", 404, "application/json", "", "S2R-ADM-0404"},
		{"post", "POST", "/console/", 405, "application/json", "", "S2R-ADM-0405"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := get(t, h, tt.method, tt.path, nil)
			b := body(t, r)
			if r.StatusCode != tt.wantStatus || !strings.HasPrefix(r.Header.Get("Content-Type"), tt.wantType) || !strings.Contains(b, tt.wantBody) {
				t.Fatalf("%s %s = %d %q %q", tt.method, tt.path, r.StatusCode, r.Header.Get("Content-Type"), b)
			}
			if got := r.Header.Get("Cache-Control"); tt.wantCache != "" && got != tt.wantCache {
				t.Errorf("Cache-Control = %q, want %q", got, tt.wantCache)
			}
			for k, want := range map[string]string{"Content-Security-Policy": ContentSecurityPolicy, "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
				if got := r.Header.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if tt.wantStatus == 405 && r.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow = %q", r.Header.Get("Allow"))
			}
		})
	}
	if r := get(t, h, "GET", "/console", nil); r.StatusCode != http.StatusPermanentRedirect || r.Header.Get("Location") != "/console/" {
		t.Errorf("/console = %d %s", r.StatusCode, r.Header.Get("Location"))
	}
}

// TestCSP: the policy allows no inline script or style, no other origin
// and no framing.
func TestCSP(t *testing.T) {
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
		if !strings.Contains(ContentSecurityPolicy, want+";") && !strings.HasSuffix(ContentSecurityPolicy, want) {
			t.Errorf("CSP lacks %q", want)
		}
	}
	if strings.Contains(ContentSecurityPolicy, "unsafe") {
		t.Errorf("CSP allows unsafe sources: %s", ContentSecurityPolicy)
	}
}

func TestETagAndGzip(t *testing.T) {
	h, err := New(testFiles())
	if err != nil {
		t.Fatal(err)
	}
	path := h.StaticPrefix() + "app.js"
	r := get(t, h, "GET", path, map[string]string{"Accept-Encoding": "br, gzip;q=0.8"})
	if r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("gzip not used: %v", r.Header)
	}
	zr, err := gzip.NewReader(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Equal(plain, testFiles()["app.js"].Data) {
		t.Errorf("gunzipped body differs")
	}
	etag := r.Header.Get("ETag")
	if r := get(t, h, "GET", path, map[string]string{"If-None-Match": `W/"x", ` + etag}); r.StatusCode != 304 || body(t, r) != "" {
		t.Errorf("If-None-Match = %d, want 304", r.StatusCode)
	}
	if r := get(t, h, "GET", path, map[string]string{"Accept-Encoding": "gzip;q=0"}); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 still compressed")
	}
	if r := get(t, h, "GET", h.StaticPrefix()+"style.css", map[string]string{"Accept-Encoding": "gzip"}); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("a tiny file whose gzip is larger was compressed")
	}
	page := get(t, h, "GET", "/console/services", nil)
	if r := get(t, h, "GET", "/console/audit", map[string]string{"If-None-Match": page.Header.Get("ETag")}); r.StatusCode != 304 {
		t.Errorf("app page revalidation = %d, want 304", r.StatusCode)
	}
}

// TestHashFollowsContent: a changed file changes the static prefix, so
// browsers never keep an old file under an immutable URL.
func TestHashFollowsContent(t *testing.T) {
	a, _ := New(testFiles())
	files := testFiles()
	files["lib/x.js"] = &fstest.MapFile{Data: []byte("export const x = 2;")}
	b, _ := New(files)
	if a.StaticPrefix() == b.StaticPrefix() {
		t.Error("changing a file kept the static prefix")
	}
	if _, err := New(fstest.MapFS{"app.js": {Data: []byte("x")}}); err == nil {
		t.Error("New without index.html succeeded")
	}
}

// TestEmbeddedConsole checks the real console files: the page loads its
// entry module and stylesheet through the hashed prefix; every relative
// import of every module names an embedded file; no HTML holds an inline
// script or style (the CSP would block it).
func TestEmbeddedConsole(t *testing.T) {
	h, err := New(web.Console())
	if err != nil {
		t.Fatal(err)
	}
	page := body(t, get(t, h, "GET", "/console/", nil))
	for _, want := range []string{`src="` + h.StaticPrefix() + `app.js"`, `href="` + h.StaticPrefix() + `style.css"`} {
		if !strings.Contains(page, want) {
			t.Errorf("app page lacks %s", want)
		}
	}
	if regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]`).MatchString(page) || strings.Contains(page, "<style") || strings.Contains(page, "style=") {
		t.Errorf("app page has inline script or style:\n%s", page)
	}
	importRE := regexp.MustCompile(`(?:from|import)\s*["'](\.{1,2}/[^"']+)["']`)
	for name := range h.files {
		if !strings.HasSuffix(name, ".js") && !strings.HasSuffix(name, ".mjs") {
			continue
		}
		for _, m := range importRE.FindAllStringSubmatch(string(h.files[name].body), -1) {
			target := resolve(name, m[1])
			if h.files[target] == nil {
				t.Errorf("%s imports %s: no such embedded file (%s)", name, m[1], target)
			}
		}
		if strings.Contains(string(h.files[name].body), `from"preact"`) || strings.Contains(string(h.files[name].body), `from "preact"`) {
			t.Errorf("%s imports the bare specifier preact", name)
		}
	}
}

// resolve joins a relative import to the importing file's directory.
func resolve(from, rel string) string {
	dir := strings.Split(from, "/")
	dir = dir[:len(dir)-1]
	for _, part := range strings.Split(rel, "/") {
		switch part {
		case ".":
		case "..":
			if len(dir) > 0 {
				dir = dir[:len(dir)-1]
			}
		default:
			dir = append(dir, part)
		}
	}
	return strings.Join(dir, "/")
}
