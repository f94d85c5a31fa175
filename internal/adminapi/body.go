package adminapi

import (
	"errors"
	"io"
	"net/http"

	"github.com/s2r-project/s2r/internal/apierr"
)

// ReadBody reads r's whole body, of at most limit bytes, for a handler
// that needs it in memory. A declared Content-Length over limit is refused
// at once with 413 S2R-ADM-0413 (details.maxPayloadMb), before a byte is
// read, and the connection is closed rather than drained; a body that
// grows past limit while being read gets the same answer. The body is
// read without the repeated doubling of io.ReadAll, so a refused body
// costs the server about limit bytes, not several times that.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if err := CheckLength(w, r, limit); err != nil {
		return nil, err
	}
	body, err := ReadAll(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	if err != nil {
		return nil, BodyError(err, limit)
	}
	return body, nil
}

// CheckLength refuses a request whose declared Content-Length is over
// limit with 413 S2R-ADM-0413, asking the server to close the connection
// instead of reading the rest. Handlers that stream their body (multipart
// forms) call it before reading.
func CheckLength(w http.ResponseWriter, r *http.Request, limit int64) error {
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close")
		return tooLarge(limit)
	}
	return nil
}

// BodyError maps a failure to read a body limited by http.MaxBytesReader:
// over the limit is 413 S2R-ADM-0413, anything else 400 S2R-VAL-0400.
func BodyError(err error, limit int64) error {
	var over *http.MaxBytesError
	if errors.As(err, &over) {
		return tooLarge(limit)
	}
	return apierr.Wrap(apierr.ValBadRequest, err, "request body could not be read")
}

func tooLarge(limit int64) error {
	mb := int(limit >> 20)
	if mb < 1 {
		mb = 1
	}
	return apierr.PayloadTooLarge(apierr.AdmPayloadTooLarge, mb)
}

// Chunk sizes of ReadAll for a body of unknown length: small bodies stay
// small, large ones are read in chunks of at most maxChunk.
const (
	firstChunk = 32 << 10
	maxChunk   = 1 << 20
)

// ReadAll reads rd to its end. With a known size (>= 0) it allocates that
// much once; otherwise it collects chunks and joins them once at the end,
// so the memory a read holds is the bytes read so far, never a doubled
// buffer and its copy.
func ReadAll(rd io.Reader, size int64) ([]byte, error) {
	if size >= 0 && size <= 1<<30 {
		buf := make([]byte, 0, size+1) // +1: the read that reports EOF
		for {
			n, err := rd.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				return buf, nil
			}
			if err != nil {
				return nil, err
			}
			if len(buf) == cap(buf) {
				// Longer than declared (or a lying reader): go on in chunks.
				rest, err := ReadAll(rd, -1)
				if err != nil {
					return nil, err
				}
				return append(buf, rest...), nil
			}
		}
	}
	var chunks [][]byte
	total, size := 0, firstChunk
	for {
		c := make([]byte, size)
		size = min(2*size, maxChunk)
		n, err := io.ReadFull(rd, c)
		if n > 0 {
			chunks = append(chunks, c[:n])
			total += n
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}
