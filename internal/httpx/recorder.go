package httpx

import "net/http"

// recorder wraps a ResponseWriter to remember the status and body size. It
// implements Unwrap so http.ResponseController reaches Flush, deadlines and
// hijacking on the underlying writer.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func wrap(w http.ResponseWriter) *recorder {
	if rec, ok := w.(*recorder); ok {
		return rec
	}
	return &recorder{ResponseWriter: w}
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Flush implements http.Flusher for streaming handlers.
func (r *recorder) Flush() {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	http.NewResponseController(r.ResponseWriter).Flush()
}

// Unwrap returns the underlying ResponseWriter.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Status returns the status written so far, 0 if none.
func (r *recorder) Status() int { return r.status }

// written reports whether the header has been sent.
func (r *recorder) written() bool { return r.status != 0 }
