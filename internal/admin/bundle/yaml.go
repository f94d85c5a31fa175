package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlTypes are the media types that ask for YAML.
var yamlTypes = map[string]bool{"application/yaml": true, "application/x-yaml": true, "text/yaml": true, "text/x-yaml": true}

// wantsYAML reports whether the Accept header lists a YAML media type
// before (or without) JSON.
func wantsYAML(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch {
		case yamlTypes[mt]:
			return true
		case mt == "application/json":
			return false
		}
	}
	return false
}

// ToYAML renders v as YAML with the field names and order of its JSON
// encoding: v is encoded as JSON, read back as a YAML node tree (JSON is
// YAML) and written in block style, so one set of struct tags serves both
// formats. Multi-line strings (WSDL files) become literal blocks.
func ToYAML(v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("bundle: encode: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(j, &doc); err != nil {
		return nil, fmt.Errorf("bundle: yaml: %w", err)
	}
	blockStyle(&doc)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("bundle: yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("bundle: yaml: %w", err)
	}
	return buf.Bytes(), nil
}

// blockStyle drops the flow and quoting styles the JSON text gave the
// nodes; the encoder then quotes only the strings that need it.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// writeYAML answers the bundle as YAML.
func writeYAML(w http.ResponseWriter, b Bundle) error {
	y, err := ToYAML(b)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/yaml; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(y)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(y)
	return nil
}
