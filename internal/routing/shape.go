package routing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// EnvelopeWrap is a parsed envelopeWrapOverride (docs/decisions-catalog.md):
// the success body becomes {dataField: <converted JSON>, …included members}.
type EnvelopeWrap struct {
	DataField     string
	CorrelationID bool
	ServiceKey    bool
	OperationKey  bool
	Timestamp     bool
}

// ParseEnvelopeWrap parses an envelopeWrapOverride; null or empty gives nil.
func ParseEnvelopeWrap(raw json.RawMessage) (*EnvelopeWrap, error) {
	if isNull(raw) {
		return nil, nil
	}
	var v struct {
		DataField string          `json:"dataField"`
		Include   map[string]bool `json:"include"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("envelopeWrapOverride: %w", err)
	}
	if v.DataField == "" {
		return nil, errors.New("envelopeWrapOverride: dataField is empty")
	}
	w := &EnvelopeWrap{DataField: v.DataField}
	for k, on := range v.Include {
		switch k {
		case "correlationId":
			w.CorrelationID = on
		case "serviceKey":
			w.ServiceKey = on
		case "operationKey":
			w.OperationKey = on
		case "timestamp":
			w.Timestamp = on
		default:
			return nil, fmt.Errorf("envelopeWrapOverride: unknown include member %q", k)
		}
	}
	return w, nil
}

// ErrorShape is a parsed errorShapeOverride: a JSON template whose string
// values may hold ${code}, ${message}, ${correlationId} and ${status}, and
// whose string values equal to "${details}" become the details object.
type ErrorShape struct {
	Root *ShapeNode
}

// ShapeNode is one value of an error shape template.
type ShapeNode struct {
	// Literal is the JSON text of a number, boolean or null.
	Literal []byte
	// Text is a string template (Kind String).
	Text string
	// Details marks the string "${details}".
	Details bool
	Object  []ShapeMember
	Array   []*ShapeNode
	Kind    ShapeKind
}

// ShapeKind is the JSON kind of a template node.
type ShapeKind uint8

// Template node kinds.
const (
	ShapeLiteral ShapeKind = iota
	ShapeString
	ShapeObject
	ShapeArray
)

// ShapeMember is one object member of a template, in document order.
type ShapeMember struct {
	Name  string
	Value *ShapeNode
}

// ParseErrorShape parses an errorShapeOverride; null or empty gives nil.
func ParseErrorShape(raw json.RawMessage) (*ErrorShape, error) {
	if isNull(raw) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	root, err := parseShapeNode(dec, 0)
	if err != nil {
		return nil, fmt.Errorf("errorShapeOverride: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("errorShapeOverride: trailing data")
	}
	if root.Kind != ShapeObject {
		return nil, errors.New("errorShapeOverride: not a JSON object")
	}
	return &ErrorShape{Root: root}, nil
}

const maxShapeDepth = 8

func parseShapeNode(dec *json.Decoder, depth int) (*ShapeNode, error) {
	if depth > maxShapeDepth {
		return nil, errors.New("deeper than 8 levels")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n := &ShapeNode{Kind: ShapeObject}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				name, _ := kt.(string)
				v, err := parseShapeNode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.Object = append(n.Object, ShapeMember{Name: name, Value: v})
			}
			_, err := dec.Token()
			return n, err
		}
		n := &ShapeNode{Kind: ShapeArray}
		for dec.More() {
			v, err := parseShapeNode(dec, depth+1)
			if err != nil {
				return nil, err
			}
			n.Array = append(n.Array, v)
		}
		_, err := dec.Token()
		return n, err
	case string:
		if t == "${details}" {
			return &ShapeNode{Kind: ShapeString, Details: true}, nil
		}
		if err := checkPlaceholders(t); err != nil {
			return nil, err
		}
		return &ShapeNode{Kind: ShapeString, Text: t}, nil
	case json.Number:
		return &ShapeNode{Literal: []byte(t.String())}, nil
	case bool:
		if t {
			return &ShapeNode{Literal: []byte("true")}, nil
		}
		return &ShapeNode{Literal: []byte("false")}, nil
	default:
		return &ShapeNode{Literal: []byte("null")}, nil
	}
}

// Placeholders a string of an error shape may hold.
var shapePlaceholders = []string{"code", "message", "correlationId", "status"}

func checkPlaceholders(s string) error {
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return nil
		}
		name := s[i+2 : i+j]
		ok := false
		for _, p := range shapePlaceholders {
			ok = ok || p == name
		}
		if !ok {
			return fmt.Errorf("unknown placeholder ${%s}", name)
		}
		s = s[i+j+1:]
	}
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}
