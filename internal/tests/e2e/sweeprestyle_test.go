package e2e

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// restyle writes a SOAP envelope again as other SOAP stacks serialize the
// same content: an XML declaration, every element of the Header and Body
// unprefixed with its namespace declared as the default one on it
// (xmlns="" for unqualified elements), the markup indented, and the
// samples' boolean and number values in other lexical forms ("true" as
// "1", "1" with whitespace around). The Envelope keeps its prefixed
// declarations, so QName values (xsi:type) still resolve; other text is
// not touched.
func restyle(doc []byte) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	var out bytes.Buffer
	out.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	prefixes := map[string]string{} // namespace URI → prefix declared on the Envelope
	depth := 0
	lastTag := false // the last thing written is a tag (indent before the next)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				for _, a := range tk.Attr {
					if a.Name.Space == "xmlns" {
						prefixes[a.Value] = a.Name.Local
					}
				}
			}
			if lastTag {
				out.WriteString("\n" + strings.Repeat("  ", depth))
			}
			writeStart(&out, tk, depth, prefixes)
			depth++
			lastTag = true
		case xml.EndElement:
			depth--
			if lastTag {
				out.WriteString("\n" + strings.Repeat("  ", depth))
			}
			out.WriteString("</" + tagName(tk.Name, depth, prefixes) + ">")
			lastTag = true
		case xml.CharData:
			if len(bytes.TrimSpace(tk)) == 0 && lastTag {
				continue // the indentation replaces blank text between tags
			}
			switch string(tk) {
			case "true":
				tk = []byte("1")
			case "1":
				tk = []byte(" 1\n ")
			}
			_ = xml.EscapeText(&out, tk)
			lastTag = false
		}
	}
}

// tagName is the name an element is written with: prefixed for the
// Envelope, Header and Body (depth < 2), else unprefixed.
func tagName(n xml.Name, depth int, prefixes map[string]string) string {
	if depth < 2 {
		if p := prefixes[n.Space]; p != "" {
			return p + ":" + n.Local
		}
	}
	return n.Local
}

func writeStart(out *bytes.Buffer, se xml.StartElement, depth int, prefixes map[string]string) {
	out.WriteString("<" + tagName(se.Name, depth, prefixes))
	if depth >= 2 {
		out.WriteString(` xmlns="`)
		_ = xml.EscapeText(out, []byte(se.Name.Space))
		out.WriteString(`"`)
	}
	for _, a := range se.Attr {
		switch {
		case a.Name.Space == "xmlns":
			if depth >= 2 {
				continue // the Envelope declares every prefix the plan uses
			}
			out.WriteString(" xmlns:" + a.Name.Local)
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			continue
		case a.Name.Space != "":
			out.WriteString(" " + prefixes[a.Name.Space] + ":" + a.Name.Local)
		default:
			out.WriteString(" " + a.Name.Local)
		}
		out.WriteString(`="`)
		_ = xml.EscapeText(out, []byte(a.Value))
		out.WriteString(`"`)
	}
	out.WriteString(">")
}
