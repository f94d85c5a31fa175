package admin

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"os"
	"path/filepath"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// Corpus documents used by the import tests (relative to the corpus root).
const (
	countryInfoWSDL   = "postmanlabs+wsdl-to-postman/test/data/validWSDLs11/countryInformation.wsdl"
	wsdlImportDir     = "vpulim+node-soap/test/wsdl/wsdlImport"
	nsTypeConflictDir = "vpulim+node-soap/test/wsdl/nsTypeConflict"
)

// zipOf builds a ZIP of the given entries (names as given, even hostile).
func zipOf(t testing.TB, entries map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range entries {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipOfCorpusDir zips every file of a corpus folder under prefix.
func zipOfCorpusDir(t testing.TB, rel, prefix string) []byte {
	t.Helper()
	return zipOfDir(t, filepath.Join(wsdlcorpus.Dir(t), filepath.FromSlash(rel)), prefix)
}

// zipOfDir zips every file of folder dir under prefix.
func zipOfDir(t testing.TB, dir, prefix string) []byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[prefix+e.Name()] = b
	}
	return zipOf(t, files)
}

// formPart is one multipart part: a file when filename is set.
type formPart struct {
	name, filename string
	data           []byte
}

// multipartBody encodes parts and returns the body and its Content-Type.
func multipartBody(t testing.TB, parts ...formPart) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var (
			w   io.Writer
			err error
		)
		if p.filename != "" {
			w, err = mw.CreateFormFile(p.name, p.filename)
		} else {
			w, err = mw.CreateFormField(p.name)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(p.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType()
}

// upload posts parts as multipart to path as the operator.
func (a *testAPI) upload(path string, parts ...formPart) response {
	a.t.Helper()
	body, ct := multipartBody(a.t, parts...)
	return a.Send("POST", path, operatorEmail, ct, body)
}

// tableCounts counts the rows of tables (missing tables count -1), to
// check that a failed request left nothing behind.
func tableCounts(t testing.TB, st *store.Store, tables ...string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, tbl := range tables {
		n, err := st.CountRows(context.Background(), tbl)
		if err != nil {
			out[tbl] = -1
			continue
		}
		out[tbl] = n
	}
	return out
}

// unzipForTest reads every entry of a ZIP built by zipOf.
func unzipForTest(t testing.TB, z []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}
