package zipset

import (
	"io/fs"
	"testing"
)

func FuzzRead(f *testing.F) {
	f.Add(buildZip(f, entry{name: "a.wsdl", body: "<definitions/>"}, entry{name: "t/b.xsd", body: "<schema/>"}))
	f.Add(buildZip(f, entry{name: "d/", mode: fs.ModeDir | 0o755}, entry{name: `x\y.xsd`, body: "y", store: true}))
	f.Add(buildZip(f, entry{name: "../e.xsd", body: "e"}))
	f.Add(buildZip(f, entry{name: "l", body: "t", mode: fs.ModeSymlink | 0o777}))
	f.Add(buildRawZip(f, rawEntry{name: "lie.xsd", method: 8, data: deflate(f, make([]byte, 5000)), uncompressed: 10}))
	f.Add(buildRawZip(f, rawEntry{name: "bomb.xsd", method: 8, data: zeroBomb(f, 3), uncompressed: 3 << 20}))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	lim := Limits{MaxFiles: 8, MaxTotalBytes: 1 << 16, MaxFileBytes: 1 << 14}
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := Read(data, lim)
		if err != nil {
			return
		}
		if len(files) > lim.MaxFiles {
			t.Fatalf("%d files over the limit", len(files))
		}
		var total int64
		for name, body := range files {
			if clean, err := cleanName(name); err != nil || clean != name {
				t.Fatalf("returned unclean name %q", name)
			}
			if int64(len(body)) > lim.MaxFileBytes {
				t.Fatalf("%s: %d bytes over the per-file limit", name, len(body))
			}
			total += int64(len(body))
		}
		if total > lim.MaxTotalBytes {
			t.Fatalf("total %d over the limit", total)
		}
		out, err := Write(files)
		if err != nil {
			t.Fatalf("Write of Read's output: %v", err)
		}
		if _, err := Read(out, Limits{}); err != nil {
			t.Fatalf("Read of Write's output: %v", err)
		}
	})
}
