package observe

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// The spool keeps on disk, in order, the transaction records the
// database could not take (docs/decisions-resilience.md, "Transaction
// records while the database is away"). Each spilled batch is one file,
// NNNNNNNNNNNNNNNNNNNN.txs (a sequence number, so names sort in order):
// one JSON record per line, written to a temporary file and renamed, so a
// file is either whole or absent. Records are already redacted (toLog
// runs first) and files are 0600 in a 0700 directory.

// spoolExt names the spool's batch files.
const spoolExt = ".txs"

// errSpoolFull refuses a batch that would take the spool past its size.
var errSpoolFull = errors.New("observe: the record spool is full")

// spoolFile is one spilled batch.
type spoolFile struct {
	seq     uint64
	size    int64
	records int
	at      time.Time // when it was written
}

// spool is the on-disk queue. Its methods are safe for concurrent use:
// the batch writer appends while the replayer reads and removes.
type spool struct {
	dir      string
	maxBytes int64
	maxAge   time.Duration
	now      func() time.Time

	mu      sync.Mutex
	files   []spoolFile // oldest first
	bytes   int64
	records int64
	next    uint64
}

// openSpool opens (creating it) the spool in dir and takes over the files
// a previous run left there.
func openSpool(dir string, maxBytes int64, maxAge time.Duration, now func() time.Time) (*spool, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("observe: record spool: %w", err)
	}
	s := &spool{dir: dir, maxBytes: maxBytes, maxAge: maxAge, now: now, next: 1}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("observe: record spool: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".tmp") { // a write cut short: never renamed, never counted
			os.Remove(filepath.Join(dir, name))
			continue
		}
		seq, err := strconv.ParseUint(strings.TrimSuffix(name, spoolExt), 10, 64)
		if err != nil || !strings.HasSuffix(name, spoolExt) {
			continue
		}
		f, err := s.scan(seq)
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, f)
		s.bytes += f.size
		s.records += int64(f.records)
		s.next = max(s.next, seq+1)
	}
	slices.SortFunc(s.files, func(a, b spoolFile) int { return cmp.Compare(a.seq, b.seq) })
	return s, nil
}

// scan reads the size, record count and time of an existing file.
func (s *spool) scan(seq uint64) (spoolFile, error) {
	p := s.path(seq)
	b, err := os.ReadFile(p)
	if err != nil {
		return spoolFile{}, fmt.Errorf("observe: record spool: %w", err)
	}
	st, err := os.Stat(p)
	if err != nil {
		return spoolFile{}, fmt.Errorf("observe: record spool: %w", err)
	}
	return spoolFile{seq: seq, size: int64(len(b)), records: bytes.Count(b, []byte{'\n'}), at: st.ModTime()}, nil
}

func (s *spool) path(seq uint64) string {
	return filepath.Join(s.dir, fmt.Sprintf("%020d%s", seq, spoolExt))
}

// spoolRecord is a TxLog with the fields TxLog keeps out of JSON.
type spoolRecord struct {
	model.TxLog
	RequestPayload  []byte `json:"requestPayload,omitempty"`
	ResponsePayload []byte `json:"responsePayload,omitempty"`
	BackendRequest  []byte `json:"backendRequest,omitempty"`
	BackendResponse []byte `json:"backendResponse,omitempty"`
	DebugHeaders    string `json:"debugHeaders,omitempty"`
}

// append writes batch as the spool's newest file; errSpoolFull when it
// would take the spool past maxBytes (the batch is then not kept).
func (s *spool) append(batch []model.TxLog) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range batch {
		l := &batch[i]
		if err := enc.Encode(spoolRecord{TxLog: *l, RequestPayload: l.RequestPayload, ResponsePayload: l.ResponsePayload,
			BackendRequest: l.BackendRequest, BackendResponse: l.BackendResponse, DebugHeaders: l.DebugHeaders}); err != nil {
			return fmt.Errorf("observe: record spool: %w", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bytes+int64(buf.Len()) > s.maxBytes {
		return errSpoolFull
	}
	seq := s.next
	tmp := s.path(seq) + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("observe: record spool: %w", err)
	}
	if err := os.Rename(tmp, s.path(seq)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("observe: record spool: %w", err)
	}
	s.next++
	s.files = append(s.files, spoolFile{seq: seq, size: int64(buf.Len()), records: len(batch), at: s.now()})
	s.bytes += int64(buf.Len())
	s.records += int64(len(batch))
	return nil
}

// pending returns how many records wait in the spool.
func (s *spool) pending() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.records
}

// size returns the bytes the spool holds.
func (s *spool) size() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// head returns the oldest file, false when the spool is empty.
func (s *spool) head() (spoolFile, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.files) == 0 {
		return spoolFile{}, false
	}
	return s.files[0], true
}

// read decodes the records of f, in the order they were spilled.
func (s *spool) read(f spoolFile) ([]model.TxLog, error) {
	b, err := os.ReadFile(s.path(f.seq))
	if err != nil {
		return nil, fmt.Errorf("observe: record spool: %w", err)
	}
	out := make([]model.TxLog, 0, f.records)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		var r spoolRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("observe: record spool file %d: %w", f.seq, err)
		}
		l := r.TxLog
		l.RequestPayload, l.ResponsePayload, l.BackendRequest, l.BackendResponse = r.RequestPayload, r.ResponsePayload, r.BackendRequest, r.BackendResponse
		l.DebugHeaders = r.DebugHeaders
		out = append(out, l)
	}
	return out, sc.Err()
}

// remove takes f, the head, out of the spool once its records are stored
// (or dropped) and deletes its file. Even when the file cannot be deleted
// it is out of this run's spool, so its records are not written twice
// (the next start would find it again).
func (s *spool) remove(f spoolFile) error {
	s.mu.Lock()
	if len(s.files) > 0 && s.files[0].seq == f.seq {
		s.files = s.files[1:]
		s.bytes -= f.size
		s.records -= int64(f.records)
	}
	s.mu.Unlock()
	if err := os.Remove(s.path(f.seq)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("observe: record spool: %w", err)
	}
	return nil
}

// expired reports whether f is past the spool's age limit.
func (s *spool) expired(f spoolFile) bool {
	return s.now().Sub(f.at) > s.maxAge
}
