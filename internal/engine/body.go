package engine

import (
	"errors"
	"io"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// maxChunkLine bounds a chunk-size or trailer line (as the framing
// check does).
const maxChunkLine = 4096

// maxTrailerBytes bounds the trailer section of a chunked body, which is
// read and dropped (net/http's bound: its read buffer).
const maxTrailerBytes = 4 << 10

var (
	errBodyClosed = errors.New("http: invalid Read on closed Body")
	errBadChunk   = errors.New("malformed chunked encoding")
)

// body is a request body read from the connection: Content-Length bytes
// or chunked. It sends 100 Continue before its first read when the client
// asked for it.
type body struct {
	c       *conn
	left    int64 // Content-Length bytes left, or bytes left in the chunk
	chunked bool
	inChunk bool  // chunked: reading a chunk's data
	expect  bool  // 100 Continue still to send
	err     error // sticky: io.EOF at the end, or the failure
	closed  bool
}

func (b *body) reset(c *conn, p parsed) {
	*b = body{c: c, left: p.framing.Length, chunked: p.framing.Chunked, expect: p.expect}
}

// Read implements io.Reader.
func (b *body) Read(p []byte) (int, error) {
	if b.closed {
		return 0, errBodyClosed
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.expect {
		b.expect = false
		if err := b.c.writeContinue(); err != nil {
			b.err = err
			return 0, err
		}
	}
	var n int
	var err error
	if b.chunked {
		n, err = b.readChunked(p)
	} else {
		n, err = b.readLength(p)
	}
	if err != nil {
		b.err = err
		if err == io.EOF {
			b.c.watch.bodyDone()
		}
	}
	return n, err
}

func (b *body) readLength(p []byte) (int, error) {
	if b.left == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.c.br.Read(p)
	b.left -= int64(n)
	switch {
	case b.left == 0:
		return n, io.EOF
	case err == io.EOF:
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

func (b *body) readChunked(p []byte) (int, error) {
	for !b.inChunk {
		size, err := b.chunkLine()
		if err != nil {
			return 0, err
		}
		if size == 0 {
			return 0, b.trailers()
		}
		b.left, b.inChunk = size, true
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.c.br.Read(p)
	b.left -= int64(n)
	if b.left == 0 {
		b.inChunk = false
		if err == nil {
			err = b.crlf()
		}
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// line reads one CRLF-ended line of at most maxChunkLine bytes.
func (b *body) line() ([]byte, error) {
	l, err := b.c.br.ReadSlice('\n')
	switch {
	case errors.Is(err, io.EOF):
		return nil, io.ErrUnexpectedEOF
	case err != nil || len(l) > maxChunkLine || len(l) < 2 || l[len(l)-2] != '\r':
		return nil, errBadChunk
	}
	return l[:len(l)-2], nil
}

func (b *body) chunkLine() (int64, error) {
	l, err := b.line()
	if err != nil {
		return 0, err
	}
	size, ok := ChunkSize(l)
	if !ok {
		return 0, errBadChunk
	}
	return size, nil
}

// crlf reads the CRLF after a chunk's data.
func (b *body) crlf() error {
	l, err := b.line()
	if err == nil && len(l) != 0 {
		err = errBadChunk
	}
	return err
}

// trailers reads the trailer section and drops it; io.EOF at its end.
// Each line must be a header field (net/http parses them as such and
// fails the body otherwise); folded lines are refused.
func (b *body) trailers() error {
	total := 0
	for {
		l, err := b.line()
		if err != nil {
			return err
		}
		if len(l) == 0 {
			return io.EOF
		}
		if total += len(l) + 2; total > maxTrailerBytes {
			return errBadChunk
		}
		name, value, ok := strings.Cut(string(l), ":")
		if !ok || !httpguts.ValidHeaderFieldName(name) || !httpguts.ValidHeaderFieldValue(value) {
			return errBadChunk
		}
	}
}

// Close implements io.Closer; what is left is dropped by the connection.
func (b *body) Close() error {
	b.closed = true
	return nil
}

// drain reads what the handler left of the body, at most limit bytes,
// and reports whether the next request can be read after it.
func (b *body) drain(limit int64) bool {
	if b.expect {
		return false // the client waits for 100 Continue: nothing was sent
	}
	if b.err != nil {
		return b.err == io.EOF
	}
	if !b.chunked {
		if b.left > limit {
			return false
		}
		n, err := b.c.br.Discard(int(b.left))
		b.left -= int64(n)
		return err == nil
	}
	b.closed = false
	var buf [512]byte
	for limit > 0 {
		n, err := b.Read(buf[:min(int64(len(buf)), limit)])
		limit -= int64(n)
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
	return false
}
