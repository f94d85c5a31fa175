package convert

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// tapeTok is one JSON value or object name of a document held in memory.
// Scalars and names carry their raw byte range; objects and arrays carry in
// end the tape index just after their last token, so a reader can skip them.
type tapeTok struct {
	kind  jsontext.Kind
	str   strFlags // what validating a string learnt of it
	start int32
	end   int32
}

// strFlags records what the validation of a string (scan or the decoder)
// found, so that readers need not look at its bytes again.
type strFlags uint8

const (
	strPlain strFlags = 1 << iota // no escapes: the body is the value
	strASCII                      // the raw string is ASCII only
)

// stringFlags returns the flags of the raw string s, as scan sets them.
func stringFlags(s []byte) strFlags {
	flags := strPlain | strASCII
	for _, c := range s {
		switch {
		case c == '\\':
			flags &^= strPlain
		case c >= 0x80:
			flags &^= strASCII
		}
	}
	return flags
}

// tape is a flat, validated index of a JSON document. It lets the JSON→XML
// writer visit object members in schema order without building a tree.
type tape struct {
	in    []byte
	toks  []tapeTok
	stack []int32
	// bb wraps the input: the decoder parses a bytes.Buffer in place.
	bb  bytes.Buffer
	dec *jsontext.Decoder
}

var tapePool = sync.Pool{New: func() any {
	t := &tape{}
	t.dec = jsontext.NewDecoder(&t.bb)
	return t
}}

// maxJSONDepth bounds nesting like xmlstream bounds XML depth.
const maxJSONDepth = 256

// build indexes in. Decoder errors (syntax, invalid UTF-8 and, unless
// allowDup, duplicate names) are returned as *Error with the JSON pointer.
// Plans allow duplicates here and refuse them while filling member slots.
func (t *tape) build(in []byte, allowDup bool) error {
	if len(in) > 1<<31-1 {
		return &Error{Reason: "JSON document too large"}
	}
	if allowDup && t.scan(in) {
		return nil
	}
	return t.decode(in, allowDup)
}

// decode is build with the jsontext decoder, for what scan leaves.
func (t *tape) decode(in []byte, allowDup bool) error {
	t.in, t.toks, t.stack = in, t.toks[:0], t.stack[:0]
	t.bb = *bytes.NewBuffer(in[:len(in):len(in)])
	t.dec.Reset(&t.bb, jsontext.AllowDuplicateNames(allowDup))
	for {
		if err := t.next(); err != nil {
			return jsonSyntaxError(t.dec, err)
		}
		if len(t.stack) == 0 {
			break
		}
	}
	if _, err := t.dec.ReadToken(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("unexpected data after the top-level value")
		}
		return jsonSyntaxError(t.dec, err)
	}
	return nil
}

func (t *tape) next() error {
	switch k := t.dec.PeekKind(); k {
	case '{', '[':
		if _, err := t.dec.ReadToken(); err != nil {
			return err
		}
		if len(t.stack) >= maxJSONDepth {
			return errors.New("nesting deeper than " + strconv.Itoa(maxJSONDepth))
		}
		t.stack = append(t.stack, int32(len(t.toks)))
		t.toks = append(t.toks, tapeTok{kind: k})
	case '}', ']':
		if _, err := t.dec.ReadToken(); err != nil {
			return err
		}
		i := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.toks[i].end = int32(len(t.toks))
	default:
		v, err := t.dec.ReadValue()
		if err != nil {
			return err
		}
		end := int32(t.dec.InputOffset())
		tk := tapeTok{kind: v.Kind(), start: end - int32(len(v)), end: end}
		if tk.kind == '"' {
			tk.str = stringFlags(v)
		}
		t.toks = append(t.toks, tk)
	}
	return nil
}

func jsonSyntaxError(dec *jsontext.Decoder, err error) error {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		return &Error{Pointer: string(se.JSONPointer), Reason: "invalid JSON: " + trimJSONErr(se.Err), Err: err}
	}
	return &Error{Pointer: string(dec.StackPointer()), Reason: "invalid JSON: " + err.Error(), Err: err}
}

func trimJSONErr(err error) string {
	if err == nil {
		return "syntax error"
	}
	return err.Error()
}

// raw returns the raw bytes of the scalar or name at i.
func (t *tape) raw(i int) []byte { tk := t.toks[i]; return t.in[tk.start:tk.end] }

// skip returns the tape index just after the value at i.
func (t *tape) skip(i int) int {
	if k := t.toks[i].kind; k == '{' || k == '[' {
		return int(t.toks[i].end)
	}
	return i + 1
}

// view returns the unquoted string at i: a slice of the input when it has
// no escapes (never to be appended to), else a fresh copy.
func (t *tape) view(i int) []byte {
	tk := t.toks[i]
	r := t.in[tk.start:tk.end]
	body := r[1 : len(r)-1 : len(r)-1]
	if tk.str&strPlain != 0 {
		return body
	}
	out, err := jsontext.AppendUnquote(nil, r)
	if err != nil {
		return body // validated by the decoder; unreachable
	}
	return out
}

// appendStr appends the unquoted string at i to dst.
func (t *tape) appendStr(dst []byte, i int) []byte {
	tk := t.toks[i]
	r := t.in[tk.start:tk.end]
	body := r[1 : len(r)-1]
	if tk.str&strPlain != 0 {
		return append(dst, body...)
	}
	out, err := jsontext.AppendUnquote(dst, r)
	if err != nil {
		return append(dst, body...)
	}
	return out
}
