package convert

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// NaiveJSONToXML writes every member of the JSON object in as an
// unqualified element, by the generic mapping of docs/conversion.md: arrays
// → repeated elements, "@name" → attributes, "$value" → text, null → an
// element with xsi:nil="true".
func NaiveJSONToXML(w *xmlstream.Writer, in []byte) error {
	j := getJ2X(&Plan{}, w)
	defer putJ2X(j)
	if err := j.t.build(in, false); err != nil {
		return err
	}
	if j.t.toks[0].kind != '{' {
		return j.fail("expected a JSON object")
	}
	return j.naiveMembers(0)
}

// naiveMembers writes the non-attribute members of the object at i as
// elements.
func (j *j2x) naiveMembers(i int) error {
	end := j.t.skip(i)
	for k := i + 1; k < end; k = j.t.skip(k + 1) {
		name := string(j.t.view(k))
		if name == "$value" || len(name) > 0 && name[0] == '@' {
			continue
		}
		j.path = append(j.path, pathSeg{name: name})
		if !isNCName(name) {
			return j.fail("member name is not an XML name")
		}
		if j.t.toks[k+1].kind == '[' {
			aend := j.t.skip(k + 1)
			n := 0
			for a := k + 2; a < aend; a = j.t.skip(a) {
				j.path = append(j.path, pathSeg{index: n})
				if j.t.toks[a].kind == '[' {
					return j.fail("nested arrays have no XML form")
				}
				if err := j.naiveElement(name, a); err != nil {
					return err
				}
				j.path = j.path[:len(j.path)-1]
				n++
			}
		} else if err := j.naiveElement(name, k+1); err != nil {
			return err
		}
		j.path = j.path[:len(j.path)-1]
	}
	return nil
}

func (j *j2x) naiveElement(name string, i int) error {
	j.w.Start("", name)
	if j.t.toks[i].kind == 'n' {
		j.w.NSDecl("xsi", NSXSI)
		j.w.Attr("xsi", "nil", "true")
	} else if err := j.naiveValue(i); err != nil {
		return err
	}
	j.w.End("", name)
	return nil
}

// naiveValue writes the attributes and content of an open element from the
// JSON value at i.
func (j *j2x) naiveValue(i int) error {
	switch j.t.toks[i].kind {
	case '{':
	case '[':
		return j.fail("an array needs a member name")
	case 'n':
		return nil
	default:
		j.w.TextBytes(j.naiveScalar(i))
		return nil
	}
	end := j.t.skip(i)
	var attrs []int
	for k := i + 1; k < end; k = j.t.skip(k + 1) {
		name := string(j.t.view(k))
		if len(name) < 2 || name[0] != '@' {
			continue
		}
		if err := j.checkDuplicate(attrs, j.t.view(k)); err != nil {
			return err // JSON inside a contract allows duplicate names
		}
		attrs = append(attrs, k)
		if !isNCName(name[1:]) || !isScalar(j.t.toks[k+1].kind) {
			j.path = append(j.path, pathSeg{name: name})
			return j.fail("invalid attribute member")
		}
		j.w.Attr("", name[1:], string(j.naiveScalar(k+1)))
	}
	for k := i + 1; k < end; k = j.t.skip(k + 1) {
		if string(j.t.view(k)) == "$value" {
			if !isScalar(j.t.toks[k+1].kind) {
				j.path = append(j.path, pathSeg{name: "$value"})
				return j.fail("\"$value\" must be a string, number or boolean")
			}
			j.w.TextBytes(j.naiveScalar(k + 1))
		}
	}
	return j.naiveMembers(i)
}

func isScalar(k jsontext.Kind) bool { return k == '"' || k == '0' || k == 't' || k == 'f' || k == 'n' }

// naiveScalar returns the text of a scalar JSON value.
func (j *j2x) naiveScalar(i int) []byte {
	switch j.t.toks[i].kind {
	case '"':
		j.buf = j.t.appendStr(j.buf[:0], i)
		return j.buf
	case 'n':
		return nil
	}
	return j.t.raw(i)
}
