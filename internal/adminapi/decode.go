package adminapi

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/apierr"
)

// MaxBodyBytes bounds every admin JSON request body (1 MB); larger bodies
// get 413 S2R-ADM-0413 with details.maxPayloadMb = 1.
const MaxBodyBytes = 1 << 20

// DecodeJSON reads r's body strictly into dst: the body must be one JSON
// value of dst's shape, with no unknown members, no duplicate names, no
// trailing data, at most MaxBodyBytes, and a JSON Content-Type when one is
// given. Errors are S2R-VAL-0400 naming the offending field in
// details.field, S2R-VAL-0415, or S2R-ADM-0413.
func DecodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	if err := CheckJSONContentType(r); err != nil {
		return err
	}
	body, err := ReadBody(w, r, MaxBodyBytes)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return FieldError("", "request body is required")
	}
	if err := json.Unmarshal(body, dst, json.RejectUnknownMembers(true)); err != nil {
		return DecodeError(err)
	}
	return nil
}

// CheckJSONContentType accepts a missing Content-Type, application/json and
// any application/*+json type.
func CheckJSONContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))) {
		return nil
	}
	return apierr.New(apierr.ValUnsupportedMedia, "request body must be application/json")
}

// DecodeError turns a JSON decoding error into S2R-VAL-0400 with the field
// it concerns. The message describes the problem, never the value.
func DecodeError(err error) error {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		return FieldError(pointerToField(string(syn.JSONPointer)), "malformed JSON at byte "+strconv.FormatInt(syn.ByteOffset, 10))
	}
	var sem *json.SemanticError
	if errors.As(err, &sem) {
		field := pointerToField(string(sem.JSONPointer))
		switch {
		case errors.Is(sem.Err, json.ErrUnknownName):
			return FieldError(field, "unknown field")
		case sem.JSONKind != 0:
			return FieldError(field, "wrong type: got JSON "+KindName(sem.JSONKind))
		}
		return FieldError(field, "invalid value")
	}
	return FieldError("", "malformed JSON")
}

// KindName names a JSON kind for messages ("string", "number", …).
func KindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

// pointerToField renders a JSON pointer as a field path: "/a/0/b" becomes
// "a[0].b"; the empty pointer (the whole body) becomes "".
func pointerToField(ptr string) string {
	if ptr == "" {
		return ""
	}
	var b strings.Builder
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if _, err := strconv.Atoi(tok); err == nil && tok != "" {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// FieldError returns S2R-VAL-0400 with details.field (omitted when field
// is "", meaning the body as a whole) and details.reason.
func FieldError(field, reason string) *apierr.Error {
	msg := reason
	if field != "" {
		msg = field + ": " + reason
	}
	e := apierr.New(apierr.ValBadRequest, msg).WithDetail("reason", reason)
	if field != "" {
		e = e.WithDetail("field", field)
	}
	return e
}

// DecodeOptionalJSON is DecodeJSON for bodies that may be absent: an
// empty body leaves dst unchanged.
func DecodeOptionalJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	body, err := ReadBody(w, r, MaxBodyBytes)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return DecodeJSON(w, r, dst)
}
