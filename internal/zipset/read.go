// Package zipset reads and writes the ZIP archives that carry a WSDL and the
// XSDs it imports. Read treats the archive as hostile: entry names are
// cleaned and checked, symlinks and encrypted entries are refused, and sizes
// are measured while decompressing, never taken from the headers, so a zip
// bomb fails after at most the configured number of bytes with bounded
// memory. Write produces deterministic archives for the repair package.
package zipset

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// Limits bounds what Read accepts. Zero fields take the defaults.
type Limits struct {
	// MaxFiles is the maximum number of file entries (directories are not
	// counted, but at most MaxFiles directory entries are accepted too).
	MaxFiles int
	// MaxTotalBytes bounds the sum of the uncompressed sizes of all files.
	MaxTotalBytes int64
	// MaxFileBytes bounds the uncompressed size of each file.
	MaxFileBytes int64
}

// Default limits.
const (
	DefaultMaxFiles            = 1000
	DefaultMaxTotalBytes int64 = 64 << 20
	DefaultMaxFileBytes  int64 = 16 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultMaxTotalBytes
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultMaxFileBytes
	}
	return l
}

// EntryError reports a problem with one entry of the archive.
type EntryError struct {
	// Entry is the entry name as stored in the archive (quoted in Error).
	Entry string
	// Reason says what is wrong with it.
	Reason string
	// Err is ErrLimit for entries over a limit, otherwise nil.
	Err error
}

// Unwrap returns Err.
func (e *EntryError) Unwrap() error { return e.Err }

// Error implements error.
func (e *EntryError) Error() string {
	return fmt.Sprintf("zip entry %q: %s", e.Entry, e.Reason)
}

// ErrLimit is wrapped by the errors of archives over a limit.
var ErrLimit = errors.New("zip limit exceeded")

// ErrArchive is wrapped by errors of archives that are not readable ZIPs.
var ErrArchive = errors.New("not a readable ZIP archive")

// flagEncrypted is bit 0 of the general purpose flags.
const flagEncrypted = 0x1

// Read returns the files of a ZIP archive keyed by their cleaned relative
// paths (forward slashes, no "." or ".." segments). Directories and macOS
// Finder metadata (__MACOSX/, "._" files, .DS_Store) are skipped.
// Any unsafe or unreadable entry fails the whole archive with an
// *EntryError naming it.
func Read(data []byte, lim Limits) (map[string][]byte, error) {
	lim = lim.withDefaults()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("%w: %v", ErrArchive, err)
	}
	r := reader{lim: lim, files: map[string][]byte{}, origin: map[string]string{}}
	for _, f := range zr.File {
		if err := r.add(f); err != nil {
			return nil, err
		}
	}
	return r.files, nil
}

// reader accumulates files and running totals.
type reader struct {
	lim    Limits
	files  map[string][]byte
	origin map[string]string // cleaned name -> name in the archive
	dirs   int
	total  int64
}

func (r *reader) add(f *zip.File) error {
	name, err := cleanName(f.Name)
	if errors.Is(err, errNoFilePart) && isDir(f) {
		return nil // "./" and the like
	}
	if err != nil {
		return &EntryError{Entry: f.Name, Reason: err.Error()}
	}
	if isMacMetadata(name) {
		return nil
	}
	if isDir(f) {
		r.dirs++
		if r.dirs > r.lim.MaxFiles {
			return &EntryError{Entry: f.Name, Err: ErrLimit,
				Reason: fmt.Sprintf("more than %d directory entries in the archive", r.lim.MaxFiles)}
		}
		return nil
	}
	if err := checkEntry(f); err != nil {
		return &EntryError{Entry: f.Name, Reason: err.Error()}
	}
	if prev, dup := r.origin[name]; dup {
		return &EntryError{Entry: f.Name, Reason: fmt.Sprintf("duplicate of %q after cleaning the path", prev)}
	}
	if len(r.files) >= r.lim.MaxFiles {
		return &EntryError{Entry: f.Name, Err: ErrLimit,
			Reason: fmt.Sprintf("more than %d files in the archive", r.lim.MaxFiles)}
	}
	body, err := r.readEntry(f)
	if err != nil {
		return err
	}
	r.files[name] = body
	r.origin[name] = f.Name
	return nil
}

// isDir reports a directory entry: a name ending in a separator or a
// directory mode bit.
func isDir(f *zip.File) bool {
	n := f.Name
	return n[len(n)-1] == '/' || n[len(n)-1] == '\\' || f.Mode().IsDir()
}

// checkEntry refuses entries Read cannot or must not extract.
func checkEntry(f *zip.File) error {
	mode := f.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		return errors.New("symbolic links are not allowed")
	case !mode.IsRegular():
		return fmt.Errorf("not a regular file (mode %v)", mode.Type())
	case f.Flags&flagEncrypted != 0:
		return errors.New("encrypted entries are not supported")
	case f.Method != zip.Store && f.Method != zip.Deflate:
		return fmt.Errorf("unsupported compression method %d", f.Method)
	}
	return nil
}

// readEntry decompresses f through both limits. The header's size is used
// only to refuse early; the limit is enforced on the bytes actually
// produced, so a header that understates the size changes nothing.
func (r *reader) readEntry(f *zip.File) ([]byte, error) {
	budget := min(r.lim.MaxFileBytes, r.lim.MaxTotalBytes-r.total)
	if f.UncompressedSize64 > uint64(r.lim.MaxFileBytes) {
		return nil, r.fileTooLarge(f)
	}
	if f.UncompressedSize64 > uint64(budget) {
		return nil, r.totalTooLarge(f)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, &EntryError{Entry: f.Name, Reason: "cannot open: " + err.Error()}
	}
	defer rc.Close()
	body, err := readLimited(rc, budget)
	if errors.Is(err, errOverBudget) {
		if budget < r.lim.MaxFileBytes {
			return nil, r.totalTooLarge(f)
		}
		return nil, r.fileTooLarge(f)
	}
	if err != nil {
		return nil, &EntryError{Entry: f.Name, Reason: decompressProblem(err)}
	}
	r.total += int64(len(body))
	return body, nil
}

var errOverBudget = errors.New("over budget")

// readLimited reads all of r, failing with errOverBudget as soon as more
// than limit bytes arrive. It reads into chunks that double from 8 KiB to
// 1 MiB and joins them into an exactly sized slice at the end, so it
// allocates about twice what it returns whatever the headers claim, and
// never the limit up front.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	var chunks [][]byte
	var total int64
	size := 8 << 10
	for {
		chunk := make([]byte, size)
		n, err := fill(r, chunk)
		total += int64(n)
		if total > limit {
			return nil, errOverBudget
		}
		chunks = append(chunks, chunk[:n])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(size*2, 1<<20)
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

// fill reads until buf is full (nil error) or r fails (io.EOF at the end).
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (r *reader) fileTooLarge(f *zip.File) error {
	return &EntryError{Entry: f.Name, Err: ErrLimit,
		Reason: fmt.Sprintf("uncompressed size exceeds the per-file limit of %d bytes", r.lim.MaxFileBytes)}
}

func (r *reader) totalTooLarge(f *zip.File) error {
	return &EntryError{Entry: f.Name, Err: ErrLimit,
		Reason: fmt.Sprintf("total uncompressed size exceeds the limit of %d bytes", r.lim.MaxTotalBytes)}
}

// decompressProblem describes a decompression failure.
func decompressProblem(err error) string {
	switch {
	case errors.Is(err, zip.ErrChecksum):
		return "checksum mismatch"
	case errors.Is(err, zip.ErrFormat):
		return "corrupt data, or a size that does not match the header"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "data ends early"
	}
	return "cannot decompress: " + err.Error()
}
