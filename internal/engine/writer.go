package engine

import (
	"net"
	"sync"
)

// writeBufSize is the write buffer of a connection while it answers: an
// answer's head and a small body leave in one write.
const writeBufSize = 8 << 10

var writeBufs = sync.Pool{New: func() any { b := make([]byte, 0, writeBufSize); return &b }}

// writer buffers what goes to the client. A write larger than the room
// left goes out together with what is buffered in one writev, so a large
// body never costs an extra system call for the head in front of it. The
// buffer is taken from a pool for each answer and given back when the
// connection waits for the next request.
type writer struct {
	c    net.Conn
	buf  *[]byte
	vec  [2][]byte
	bufs net.Buffers
	err  error // sticky: the client cannot be written to
}

func (w *writer) b() []byte {
	if w.buf == nil {
		w.buf = writeBufs.Get().(*[]byte)
	}
	return *w.buf
}

// appendString adds s to the buffer, flushing it first when s does not
// fit.
func (w *writer) appendString(s string) {
	b := w.b()
	if len(b)+len(s) > cap(b) {
		w.flush()
		b = w.b()
	}
	*w.buf = append(b, s...)
}

// write sends p after what is buffered: copied when it fits, else both in
// one writev.
func (w *writer) write(p []byte) {
	if w.err != nil {
		return
	}
	b := w.b()
	if len(b)+len(p) <= cap(b) {
		*w.buf = append(b, p...)
		return
	}
	if len(b) == 0 {
		_, w.err = w.c.Write(p)
		return
	}
	w.vec[0], w.vec[1] = b, p
	w.bufs = w.vec[:]
	_, w.err = w.bufs.WriteTo(w.c)
	w.vec[0], w.vec[1], w.bufs = nil, nil, nil
	*w.buf = b[:0]
}

// flush sends what is buffered.
func (w *writer) flush() {
	if w.buf == nil || len(*w.buf) == 0 {
		return
	}
	if w.err == nil {
		_, w.err = w.c.Write(*w.buf)
	}
	*w.buf = (*w.buf)[:0]
}

// raw writes s and flushes (interim and refusal answers).
func (w *writer) raw(s string) {
	w.appendString(s)
	w.flush()
}

// release gives the buffer back to the pool (flush first).
func (w *writer) release() {
	if w.buf != nil {
		*w.buf = (*w.buf)[:0]
		writeBufs.Put(w.buf)
		w.buf = nil
	}
}
