package dataplane

import (
	"io"
	"sync"
)

// bufPool recycles the request-body and response-JSON buffers of publish
// calls, which are garbage as soon as the answer is written. Buffers that
// a debug record holds are never returned (the recorder owns them), nor is
// the envelope (the transport may still be reading it after the call).
var bufPool = sync.Pool{New: func() any { return new([]byte) }}

// maxPooled bounds the buffers kept: a rare huge payload is left to the GC.
const maxPooled = 1 << 20

// getBuf returns an empty buffer with at least n bytes of capacity.
func getBuf(n int) *[]byte {
	b := bufPool.Get().(*[]byte)
	if cap(*b) < n {
		*b = make([]byte, 0, n)
	}
	*b = (*b)[:0]
	return b
}

func putBuf(b *[]byte) {
	if b == nil || cap(*b) > maxPooled {
		return
	}
	*b = (*b)[:0]
	bufPool.Put(b)
}

// readAll appends r to *b until EOF, growing it as needed.
func readAll(b *[]byte, r io.Reader) error {
	buf := *b
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			*b = buf
			return nil
		}
		if err != nil {
			*b = buf
			return err
		}
	}
}
