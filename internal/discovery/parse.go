package discovery

import (
	"compress/gzip"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
)

// MaxBatchEvents is the most events one ingest call may carry (DESIGN 9).
const MaxBatchEvents = 5000

// errTooLarge is returned by capReader once its limit is crossed.
var errTooLarge = errors.New("discovery: body over the size limit")

// capReader reads at most n bytes from r; reading past them fails with
// errTooLarge and sets hit. It bounds the compressed body and, separately,
// the decompressed stream, so neither a large body nor a gzip bomb is
// ever read whole.
type capReader struct {
	r    io.Reader
	left int64
	hit  bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// Probe one byte: a body of exactly n bytes is fine.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			c.hit = true
			return 0, errTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// body is a request body opened for a batch: decompressed when gzip,
// capped at maxBytes before and after decompression.
type body struct {
	raw, plain *capReader
	maxMB      int
	gz         *gzip.Reader
}

// openBody wraps r; encoding is the Content-Encoding ("" or "gzip").
func openBody(r io.Reader, encoding string, maxMB int) (*body, error) {
	limit := int64(maxMB) << 20
	b := &body{raw: &capReader{r: r, left: limit}, maxMB: maxMB}
	var src io.Reader = b.raw
	if encoding == "gzip" {
		gz, err := gzip.NewReader(b.raw)
		if err != nil {
			return nil, b.fail(err, "body is not valid gzip")
		}
		b.gz = gz
		src = gz
	}
	b.plain = &capReader{r: src, left: limit}
	return b, nil
}

// fail turns a read or decode error into the caller's error: 413 when a
// limit was crossed, else 400 with reason.
func (b *body) fail(err error, reason string) error {
	if b.raw.hit || (b.plain != nil && b.plain.hit) || errors.Is(err, errTooLarge) {
		return apierr.PayloadTooLarge(apierr.IngTooLarge, b.maxMB).WithDetail("maxEvents", MaxBatchEvents)
	}
	var gzErr bool
	if b.gz != nil && (errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF)) {
		gzErr = true
	}
	if gzErr {
		reason = "body is not valid gzip"
	}
	return apierr.New(apierr.IngBadRequest, reason).WithDetail("reason", reason)
}

// eventError is S2R-ING-0400 for event index's field.
func eventError(index int, field, reason string) *apierr.Error {
	msg := "event " + strconv.Itoa(index) + ": "
	if field != "" {
		msg += field + ": "
	}
	e := apierr.New(apierr.IngBadRequest, msg+reason).With(map[string]any{"index": index, "reason": reason})
	if field != "" {
		e = e.WithDetail("field", field)
	}
	return e
}

// readBatch decodes a JSON array of event objects, or a stream of objects
// (NDJSON), from b as events of type T, calling check on each as soon as
// it is decoded (one T is reused: check keeps what it needs), and returns
// how many there were. It stops at the first problem: a malformed or
// invalid event (400 naming index and field), more than MaxBatchEvents
// events or too many bytes (413).
func readBatch[T any](b *body, check func(index int, ev *T) error) (int, error) {
	dec := jsontext.NewDecoder(b.plain)
	var array bool
	switch k := dec.PeekKind(); k {
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return 0, b.fail(err, "malformed JSON")
		}
		array = true
	case '{':
	case 0:
		if _, err := dec.ReadToken(); err != nil && !errors.Is(err, io.EOF) {
			return 0, b.fail(err, "malformed JSON")
		}
		return 0, nil // empty body: an empty batch
	default:
		return 0, b.fail(nil, "the body must be a JSON array of event objects or NDJSON (one object per line)")
	}
	var (
		ev T
		n  int
	)
	for i := 0; ; i++ {
		k := dec.PeekKind()
		if array && k == ']' {
			break
		}
		if k == 0 { // end of the stream, or an error PeekKind keeps for the next read
			_, err := dec.ReadToken()
			if !array && errors.Is(err, io.EOF) {
				break
			}
			return 0, decodeError(b, i, array, err)
		}
		if i == MaxBatchEvents {
			return 0, apierr.PayloadTooLarge(apierr.IngTooLarge, b.maxMB).WithDetail("maxEvents", MaxBatchEvents).
				WithDetail("reason", "more than "+strconv.Itoa(MaxBatchEvents)+" events")
		}
		if k != '{' {
			if _, err := dec.ReadValue(); err != nil {
				return 0, decodeError(b, i, array, err)
			}
			return 0, eventError(i, "", "must be a JSON object")
		}
		var zero T
		ev = zero
		if err := json.UnmarshalDecode(dec, &ev, json.RejectUnknownMembers(true)); err != nil {
			return 0, decodeError(b, i, array, err)
		}
		if err := check(i, &ev); err != nil {
			return 0, err
		}
		n++
	}
	if array {
		if _, err := dec.ReadToken(); err != nil {
			return 0, decodeError(b, n, array, err)
		}
		if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
			if b.raw.hit || b.plain.hit {
				return 0, b.fail(err, "")
			}
			return 0, apierr.New(apierr.IngBadRequest, "unexpected data after the JSON array").
				WithDetail("reason", "unexpected data after the JSON array")
		}
	}
	// Read to the end so a gzip trailer (checksum) is verified.
	if _, err := io.Copy(io.Discard, b.plain); err != nil {
		return 0, b.fail(err, "body could not be read")
	}
	return n, nil
}

// decodeError turns a JSON error at event index into 400 naming the field
// (or 413 when a limit cut the body).
func decodeError(b *body, index int, array bool, err error) error {
	if b.raw.hit || b.plain.hit || errors.Is(err, errTooLarge) {
		return b.fail(err, "")
	}
	var sem *json.SemanticError
	if errors.As(err, &sem) {
		field := pointerField(string(sem.JSONPointer), array)
		switch {
		case errors.Is(sem.Err, json.ErrUnknownName):
			return eventError(index, field, "unknown field")
		case sem.JSONKind != 0:
			return eventError(index, field, "wrong type: got JSON "+adminapi.KindName(sem.JSONKind))
		}
		return eventError(index, field, "invalid value")
	}
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		field := pointerField(string(syn.JSONPointer), array)
		reason := "malformed JSON at byte " + strconv.FormatInt(syn.ByteOffset, 10)
		switch {
		case errors.Is(syn.Err, jsontext.ErrDuplicateName):
			reason = "duplicate field"
		case strings.Contains(syn.Err.Error(), "UTF-8"), strings.Contains(syn.Err.Error(), "surrogate"):
			reason = "invalid UTF-8 in a string"
		}
		return eventError(index, field, reason)
	}
	if b.gz != nil {
		return b.fail(err, "body is not valid gzip")
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return eventError(index, "", "the body ends inside an event")
	}
	return b.fail(err, "body could not be read")
}

// pointerField renders the JSON pointer of a decode error as a field path
// inside the event: "/3/headers/X-A" (array) or "/headers/X-A" (NDJSON)
// becomes "headers.X-A".
func pointerField(ptr string, array bool) string {
	if ptr == "" {
		return ""
	}
	toks := strings.Split(ptr[1:], "/")
	if array && len(toks) > 0 {
		toks = toks[1:]
	}
	for i, t := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	return strings.Join(toks, ".")
}
