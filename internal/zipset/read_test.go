package zipset

import (
	"bytes"
	"errors"
	"io/fs"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestReadGood(t *testing.T) {
	data := buildZip(t,
		entry{name: "calc.wsdl", body: "<definitions/>"},
		entry{name: "types/", mode: fs.ModeDir | 0o755},
		entry{name: "types/common.xsd", body: "<schema/>", store: true},
		entry{name: "./types/./more//deep.xsd", body: "<schema id='d'/>"},
		entry{name: `win\style.xsd`, body: "<schema id='w'/>"},
		entry{name: "empty.xsd"},
		entry{name: "./", mode: fs.ModeDir | 0o755},
		entry{name: "__MACOSX/", mode: fs.ModeDir | 0o755},
		entry{name: "__MACOSX/._calc.wsdl", body: "\x00\x05\x16\x07"},
		entry{name: "types/._common.xsd", body: "\x00\x05\x16\x07"},
		entry{name: ".DS_Store", body: "Bud1"},
	)
	got, err := Read(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{
		"calc.wsdl":           []byte("<definitions/>"),
		"types/common.xsd":    []byte("<schema/>"),
		"types/more/deep.xsd": []byte("<schema id='d'/>"),
		"win/style.xsd":       []byte("<schema id='w'/>"),
		"empty.xsd":           {},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Read mismatch (-want +got):\n%s", diff)
	}
}

func TestReadRejects(t *testing.T) {
	big := strings.Repeat("a", 5000)
	tests := []struct {
		name    string
		data    []byte
		lim     Limits
		wantErr string
		limit   bool
	}{
		{name: "dotdot", data: buildZip(t, entry{name: "../evil.xsd", body: "x"}),
			wantErr: `zip entry "../evil.xsd": path escapes the archive with ".."`},
		{name: "inner dotdot", data: buildZip(t, entry{name: "a/../../evil.xsd", body: "x"}),
			wantErr: `zip entry "a/../../evil.xsd": path escapes the archive with ".."`},
		{name: "harmless dotdot still refused", data: buildZip(t, entry{name: "a/../b.xsd", body: "x"}),
			wantErr: `zip entry "a/../b.xsd": path escapes the archive with ".."`},
		{name: "backslash traversal", data: buildZip(t, entry{name: `..\..\evil.xsd`, body: "x"}),
			wantErr: `zip entry "..\\..\\evil.xsd": path escapes the archive with ".."`},
		{name: "absolute", data: buildZip(t, entry{name: "/etc/passwd", body: "x"}),
			wantErr: `zip entry "/etc/passwd": absolute path`},
		{name: "drive letter", data: buildZip(t, entry{name: `C:\x.xsd`, body: "x"}),
			wantErr: `zip entry "C:\\x.xsd": absolute Windows path`},
		{name: "drive relative", data: buildZip(t, entry{name: "c:x.xsd", body: "x"}),
			wantErr: `zip entry "c:x.xsd": absolute Windows path`},
		{name: "unc", data: buildZip(t, entry{name: `\\server\share\x.xsd`, body: "x"}),
			wantErr: `zip entry "\\\\server\\share\\x.xsd": absolute path`},
		{name: "colon in segment", data: buildZip(t, entry{name: "a/b:c.xsd", body: "x"}),
			wantErr: `zip entry "a/b:c.xsd": name contains ":"`},
		{name: "nul", data: buildZip(t, entry{name: "a\x00.xsd", body: "x"}),
			wantErr: `zip entry "a\x00.xsd": name contains a control character`},
		{name: "only dots", data: buildZip(t, entry{name: "./.", body: "x"}),
			wantErr: `zip entry "./.": name has no file part`},
		{name: "symlink", data: buildZip(t, entry{name: "link.xsd", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}),
			wantErr: `zip entry "link.xsd": symbolic links are not allowed`},
		{name: "named pipe", data: buildZip(t, entry{name: "fifo", mode: fs.ModeNamedPipe | 0o644}),
			wantErr: `zip entry "fifo": not a regular file (mode p---------)`},
		{name: "encrypted", data: buildZip(t, entry{name: "secret.xsd", body: "x", flags: 0x1}),
			wantErr: `zip entry "secret.xsd": encrypted entries are not supported`},
		{name: "bzip2", data: buildRawZip(t, rawEntry{name: "b.xsd", method: 12, data: []byte("BZh9"), uncompressed: 4}),
			wantErr: `zip entry "b.xsd": unsupported compression method 12`},
		{name: "duplicate", data: buildZip(t, entry{name: "a.xsd", body: "1"}, entry{name: "./a.xsd", body: "2"}),
			wantErr: `zip entry "./a.xsd": duplicate of "a.xsd" after cleaning the path`},
		{name: "duplicate backslash", data: buildZip(t, entry{name: "t/a.xsd", body: "1"}, entry{name: `t\a.xsd`, body: "2"}),
			wantErr: `zip entry "t\\a.xsd": duplicate of "t/a.xsd" after cleaning the path`},
		{name: "too many files", lim: Limits{MaxFiles: 2},
			data:    buildZip(t, entry{name: "a", body: "1"}, entry{name: "b", body: "2"}, entry{name: "c", body: "3"}),
			wantErr: `zip entry "c": more than 2 files in the archive`, limit: true},
		{name: "too many directories", lim: Limits{MaxFiles: 1},
			data:    buildZip(t, entry{name: "a/", mode: fs.ModeDir}, entry{name: "b/", mode: fs.ModeDir}),
			wantErr: `zip entry "b/": more than 1 directory entries in the archive`, limit: true},
		{name: "file too large", lim: Limits{MaxFileBytes: 4096},
			data:    buildZip(t, entry{name: "big.xsd", body: big}),
			wantErr: `zip entry "big.xsd": uncompressed size exceeds the per-file limit of 4096 bytes`, limit: true},
		{name: "total too large", lim: Limits{MaxTotalBytes: 9000},
			data:    buildZip(t, entry{name: "a.xsd", body: big}, entry{name: "b.xsd", body: big}),
			wantErr: `zip entry "b.xsd": total uncompressed size exceeds the limit of 9000 bytes`, limit: true},
		{name: "not a zip", data: []byte("<definitions/>"),
			wantErr: "not a readable ZIP archive: zip: not a valid zip file"},
		{name: "empty input", data: nil,
			wantErr: "not a readable ZIP archive: zip: not a valid zip file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := Read(tt.data, tt.lim)
			if err == nil {
				t.Fatalf("Read = %d files, want error %q", len(files), tt.wantErr)
			}
			if err.Error() != tt.wantErr {
				t.Errorf("error = %q\nwant    %q", err, tt.wantErr)
			}
			if got := errors.Is(err, ErrLimit); got != tt.limit {
				t.Errorf("errors.Is(err, ErrLimit) = %v, want %v", got, tt.limit)
			}
		})
	}
}

func TestReadLyingHeaders(t *testing.T) {
	payload := bytes.Repeat([]byte("<xs:element/>"), 10000) // 130,000 bytes
	compressed := deflate(t, payload)
	tests := []struct {
		name    string
		size    uint64
		lim     Limits
		wantErr string
	}{
		{name: "understated size", size: 100,
			wantErr: `zip entry "lie.xsd": corrupt data, or a size that does not match the header`},
		{name: "understated under the limit", size: 1000, lim: Limits{MaxFileBytes: 50000},
			wantErr: `zip entry "lie.xsd": corrupt data, or a size that does not match the header`},
		{name: "overstated size", size: 1 << 40, lim: Limits{MaxFileBytes: 1 << 20},
			wantErr: `zip entry "lie.xsd": uncompressed size exceeds the per-file limit of 1048576 bytes`},
		{name: "overstated small", size: 200000,
			wantErr: `zip entry "lie.xsd": data ends early`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := buildRawZip(t, rawEntry{name: "lie.xsd", method: 8, data: compressed, crc: crcOf(payload), uncompressed: tt.size})
			_, err := Read(data, tt.lim)
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("error = %v\nwant    %s", err, tt.wantErr)
			}
		})
	}
}

func TestReadBadChecksum(t *testing.T) {
	payload := []byte("<schema/>")
	data := buildRawZip(t, rawEntry{name: "a.xsd", method: 8, data: deflate(t, payload), crc: crcOf(payload) + 1, uncompressed: uint64(len(payload))})
	_, err := Read(data, Limits{})
	if want := `zip entry "a.xsd": checksum mismatch`; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// TestReadZipBomb reads a 1 KiB-per-MiB bomb that inflates to 1 GiB and
// checks that it fails quickly without allocating anywhere near that much,
// whatever size the header claims.
func TestReadZipBomb(t *testing.T) {
	bomb := zeroBomb(t, 1024)
	const limit = 4 << 20
	tests := []struct {
		name    string
		claimed uint64
		wantErr string
	}{
		{name: "honest header", claimed: 1 << 30,
			wantErr: `zip entry "bomb.xsd": uncompressed size exceeds the per-file limit of 4194304 bytes`},
		{name: "header claims the limit", claimed: limit,
			wantErr: `zip entry "bomb.xsd": corrupt data, or a size that does not match the header`},
		{name: "header claims tiny", claimed: 10,
			wantErr: `zip entry "bomb.xsd": corrupt data, or a size that does not match the header`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := buildRawZip(t, rawEntry{name: "bomb.xsd", method: 8, data: bomb, uncompressed: tt.claimed})
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Read(data, Limits{MaxFileBytes: limit, MaxTotalBytes: limit})
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("error = %v\nwant    %s", err, tt.wantErr)
			}
			if !errors.Is(err, ErrLimit) && tt.claimed > limit {
				t.Errorf("error does not wrap ErrLimit")
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*limit {
				t.Errorf("allocated %d bytes for a bomb limited to %d", alloc, limit)
			}
			if elapsed > 2*time.Second {
				t.Errorf("took %v", elapsed)
			}
		})
	}
}

// TestReadManySmallBombs checks the total limit is measured across entries.
func TestReadManySmallBombs(t *testing.T) {
	one := zeroBomb(t, 2)
	var entries []rawEntry
	for i := range 20 {
		entries = append(entries, rawEntry{name: "part" + string(rune('a'+i)) + ".xsd", method: 8, data: one, uncompressed: 2 << 20})
	}
	data := buildRawZip(t, entries...)
	_, err := Read(data, Limits{MaxFileBytes: 4 << 20, MaxTotalBytes: 7 << 20})
	want := `zip entry "partd.xsd": total uncompressed size exceeds the limit of 7340032 bytes`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}
