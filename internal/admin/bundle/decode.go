package bundle

import (
	"bytes"
	"errors"
	"mime"
	"strconv"
	"strings"

	stdjson "encoding/json"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"go.yaml.in/yaml/v3"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
)

// UnmarshalJSON reads a secret of a bundle given to apply: {"set": bool}
// (nothing else), or the secret's value as a non-empty string.
func (s *SecretSet) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		var v string
		if err := json.Unmarshal(t, &v); err != nil {
			return err
		}
		if v == "" {
			return errors.New("a secret given as a string must not be empty")
		}
		*s = SecretSet{Set: true, Value: v}
		return nil
	}
	var o struct {
		Set bool `json:"set"`
	}
	if err := json.Unmarshal(b, &o, json.RejectUnknownMembers(true)); err != nil {
		return err
	}
	*s = SecretSet{Set: o.Set}
	return nil
}

// String shows whether the secret is set and whether a value was given,
// never the value, so that printing a bundle (%v, %+v) cannot leak it.
func (s SecretSet) String() string {
	if s.Value != "" {
		return "{set: true, value: given}"
	}
	return "{set: " + strconv.FormatBool(s.Set) + "}"
}

// GoString is String, for %#v.
func (s SecretSet) GoString() string { return s.String() }

// PointerError is the 400 S2R-VAL-0400 of a bad bundle: details.pointer
// is the JSON pointer of the problem in the bundle, details.reason what
// is wrong (never the value).
func PointerError(pointer, reason string) *apierr.Error {
	msg := reason
	if pointer != "" {
		msg = pointer + ": " + reason
	}
	return apierr.New(apierr.ValBadRequest, msg).WithDetail("pointer", pointer).WithDetail("reason", reason)
}

// at turns the 400 of a check that names a field (details.field, e.g.
// "endpointUrl" or "usernameTokens[0].password") into a PointerError
// under base; other errors are returned as they are.
func at(base string, err error) error {
	e, ok := apierr.As(err)
	if !ok || e.Code != apierr.ValBadRequest {
		return err
	}
	reason, _ := e.Details["reason"].(string)
	if reason == "" {
		reason = e.Message
	}
	if field, _ := e.Details["field"].(string); field != "" {
		base += "/" + fieldPointer(field)
	}
	if i, ok := e.Details["index"].(int); ok {
		base = ptr(base, i)
	}
	return PointerError(base, reason)
}

// fieldPointer renders a field path ("a[0].b") as pointer tokens ("a/0/b").
func fieldPointer(field string) string {
	r := strings.NewReplacer("[", "/", "]", "", ".", "/")
	return r.Replace(field)
}

// ptr joins pointer tokens: ptr("/services", 2, "serviceKey").
func ptr(base string, tokens ...any) string {
	var b strings.Builder
	b.WriteString(base)
	for _, t := range tokens {
		b.WriteByte('/')
		switch v := t.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case string:
			b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(v))
		}
	}
	return b.String()
}

// ParseBundle reads a bundle strictly: JSON, or YAML when contentType is
// a YAML media type or the body does not start as a JSON object. Unknown
// members, duplicate names and wrong types are refused with the pointer
// of the first problem; apiVersion and kind must be this format's.
func ParseBundle(body []byte, contentType string) (Bundle, error) {
	text := bytes.TrimSpace(body)
	if len(text) == 0 {
		return Bundle{}, PointerError("", "the bundle is empty")
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	if yamlTypes[mt] || text[0] != '{' {
		j, err := yamlToJSON(text)
		if err != nil {
			return Bundle{}, err
		}
		text = j
	}
	var b Bundle
	if err := json.Unmarshal(text, &b, json.RejectUnknownMembers(true)); err != nil {
		return Bundle{}, decodeError(err)
	}
	switch {
	case b.APIVersion != APIVersion:
		return Bundle{}, PointerError("/apiVersion", "must be "+APIVersion)
	case b.Kind != Kind:
		return Bundle{}, PointerError("/kind", "must be "+Kind)
	}
	return b, nil
}

// yamlToJSON converts a YAML document to JSON text (JSON is YAML, so a
// JSON body with another media type is read too).
func yamlToJSON(text []byte) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(text, &v); err != nil {
		return nil, PointerError("", "the bundle is neither JSON nor YAML: "+yamlReason(err))
	}
	j, err := stdjson.Marshal(v)
	if err != nil {
		return nil, PointerError("", "the YAML bundle has a value JSON cannot hold (a non-string key or a special value)")
	}
	return j, nil
}

// yamlReason is the YAML parser's message, which names a line, never
// quoting more than a token of the document.
func yamlReason(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return msg
}

// decodeError turns a JSON decoding error into a PointerError.
func decodeError(err error) error {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		return PointerError(string(syn.JSONPointer), "malformed JSON at byte "+strconv.FormatInt(syn.ByteOffset, 10))
	}
	var sem *json.SemanticError
	if errors.As(err, &sem) {
		p := string(sem.JSONPointer)
		switch {
		case errors.Is(sem.Err, json.ErrUnknownName):
			return PointerError(p, "unknown field")
		case sem.Err != nil && strings.Contains(sem.Err.Error(), "secret"):
			return PointerError(p, sem.Err.Error())
		case sem.JSONKind != 0:
			return PointerError(p, "wrong type: got JSON "+adminapi.KindName(sem.JSONKind))
		}
		return PointerError(p, "invalid value")
	}
	return PointerError("", "malformed JSON")
}
