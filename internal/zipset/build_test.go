package zipset

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"io/fs"
	"testing"
)

// entry describes one entry a test archive holds.
type entry struct {
	name  string
	body  string
	mode  fs.FileMode // 0 means a regular 0644 file
	flags uint16
	store bool
}

// buildZip writes entries with archive/zip, in order.
func buildZip(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Flags: e.flags}
		if e.store {
			h.Method = zip.Store
		}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawEntry is an entry whose compressed bytes and header sizes are given
// as they are, true or not.
type rawEntry struct {
	name         string
	method       uint16
	data         []byte
	crc          uint32
	uncompressed uint64
}

// buildRawZip writes entries with CreateRaw, so headers can lie.
func buildRawZip(t testing.TB, entries ...rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: e.method, CRC32: e.crc,
			CompressedSize64: uint64(len(e.data)), UncompressedSize64: e.uncompressed}
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// deflate compresses b.
func deflate(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	fw.Write(b)
	fw.Close()
	return buf.Bytes()
}

// zeroBomb returns a raw deflate stream that inflates to mib MiB of zeros
// (mib >= 2), built by repeating one sync-flushed block, so a 1 GiB bomb
// costs about 1 MiB to build.
func zeroBomb(t testing.TB, mib int) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	zero := make([]byte, 1<<20)
	fw.Write(zero)
	fw.Flush()
	first := buf.Len()
	fw.Write(zero)
	fw.Flush()
	block := bytes.Clone(buf.Bytes()[first:])
	out := bytes.Clone(buf.Bytes())
	for range mib - 2 {
		out = append(out, block...)
	}
	return append(out, 0x03, 0x00) // empty final block
}

func crcOf(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
