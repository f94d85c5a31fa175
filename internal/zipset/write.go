package zipset

import (
	"archive/zip"
	"bytes"
	"fmt"
	"sort"
	"time"
)

// fixedTime is the modification time of every entry Write produces, so the
// same files always give the same bytes.
var fixedTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Write builds a deflated ZIP of files with entries in sorted name order,
// fixed timestamps and fixed permissions, so equal input gives equal bytes.
// Names must be clean relative forward-slash paths, the form Read returns.
func Write(files map[string][]byte) ([]byte, error) {
	names := make([]string, 0, len(files))
	for name := range files {
		clean, err := cleanName(name)
		if err != nil || clean != name {
			reason := "not a clean relative path"
			if err != nil {
				reason = err.Error()
			}
			return nil, &EntryError{Entry: name, Reason: reason}
		}
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: fixedTime}
		h.SetMode(0o644)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, fmt.Errorf("zip entry %q: %w", name, err)
		}
		if _, err := w.Write(files[name]); err != nil {
			return nil, fmt.Errorf("zip entry %q: %w", name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	return buf.Bytes(), nil
}
