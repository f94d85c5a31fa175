package convert

import (
	"bytes"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// QName values are namespace-qualified names whose prefix only means
// something in the XML scope it was written in, so JSON carries them in the
// expanded form "{namespace}local" ("local" when unqualified).

func isQName(st *xsd.SimpleType) bool {
	return st != nil && st.List == nil && len(st.Union) == 0 && (st.Builtin == "QName" || st.Builtin == "NOTATION")
}

// expandedName is the JSON form of a resolved QName.
func expandedName(n xmlstream.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + n.Space + "}" + n.Local
}

// collectQName reads the QName text of the element just started and
// resolves it in the element's scope (its own declarations included).
func (x *x2j) collectQName(mp *memberPlan) (string, error) {
	x.text = x.text[:0]
	var name xmlstream.Name
	var rerr error
	resolved := false
	for {
		tok, err := x.r.Next()
		if err != nil {
			return "", x.readErr(err)
		}
		switch tok.Kind {
		case xmlstream.CharData:
			x.text = append(x.text, tok.Data...)
			name, rerr = x.r.ResolveQName(string(trimXML(x.text)))
			resolved = true
		case xmlstream.StartElement:
			return "", x.failChild(tok.Name.Local, "unexpected element in simple content")
		case xmlstream.EndElement:
			if !resolved {
				if d := elementDefault(mp, nil); len(d) > 0 {
					return "", x.fail("a QName default value is not supported")
				}
				return "", x.fail(`invalid xs:QName value ""`)
			}
			if rerr != nil {
				return "", x.fail("invalid xs:QName value " + quote(string(trimXML(x.text))) + ": " + rerr.Error())
			}
			return expandedName(name), nil
		}
	}
}

// appendQName appends the XML form of the JSON QName at i, declaring its
// namespace on the open element when the plan does not declare it.
func (j *j2x) appendQName(dst []byte, i int) ([]byte, string) {
	if j.t.toks[i].kind != '"' {
		return dst, "expected a string, got " + kindName(j.t.toks[i].kind)
	}
	s := j.t.view(i)
	if len(s) == 0 || s[0] != '{' {
		if bytes.IndexByte(s, ':') >= 0 || !isNCName(string(s)) {
			return dst, "invalid QName " + quote(string(s)) + ": write \"{namespace}local\""
		}
		return append(dst, s...), ""
	}
	uri, local, ok := strings.Cut(string(s[1:]), "}")
	if !ok || uri == "" || !isNCName(local) {
		return dst, "invalid QName " + quote(string(s)) + ": write \"{namespace}local\""
	}
	prefix, declared := j.p.prefix[uri]
	if !declared {
		for prefix = ""; prefix == "" || j.p.prefixUsed(prefix); {
			j.qn++
			prefix = "qn" + itoa(j.qn)
		}
		j.w.NSDecl(prefix, uri)
	}
	dst = append(dst, prefix...)
	dst = append(dst, ':')
	return append(dst, local...), ""
}
