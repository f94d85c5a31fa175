package security

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
)

// docKind frames an attack as one kind of document: the root element's
// name and the markup around the place entity references go. Attributes
// are single-quoted so the streamed attacks need no escaping in JSON.
type docKind struct {
	name        string
	root        string // root element name for the DOCTYPE
	open, close string
}

var (
	wsdlDoc = docKind{"wsdl", "definitions",
		`<definitions xmlns='http://schemas.xmlsoap.org/wsdl/' targetNamespace='urn:sec'><documentation>`,
		`</documentation></definitions>`}
	xsdDoc = docKind{"xsd", "xs:schema",
		`<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' targetNamespace='urn:sec-remote'><xs:annotation><xs:documentation>`,
		`</xs:documentation></xs:annotation></xs:schema>`}
	soap11Doc = docKind{"soap11", "s:Envelope",
		`<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body><Add xmlns='` + calcNS + `'><a>`,
		`</a><b>1</b></Add></s:Body></s:Envelope>`}
	soap12Doc = docKind{"soap12", "s:Envelope",
		`<s:Envelope xmlns:s='http://www.w3.org/2003/05/soap-envelope'><s:Body><Add xmlns='` + calcNS + `'><a>`,
		`</a><b>1</b></Add></s:Body></s:Envelope>`}
)

// payload is an attack body: a stream and its length (-1 when unknown).
type payload struct {
	r io.Reader
	n int64
}

func fixed(s string) payload { return payload{strings.NewReader(s), int64(len(s))} }

// attackEnv is what attacks point at.
type attackEnv struct {
	canaryURL  string // a loopback URL whose listener counts connections
	secretFile string // a local file holding secretMarker
}

// secretMarker is the content of attackEnv.secretFile: it must never
// appear in an answer.
const secretMarker = "S2R-SECURITY-FILE-CANARY-7f3a"

// xmlAttack is one hostile document.
type xmlAttack struct {
	name string
	// size marks attacks refused by a length limit (413) where the entry
	// point's limit is below the document's size.
	size bool
	// harmless marks documents that are not malformed (an external DTD
	// reference is ignored, never fetched): they need not be refused, but
	// must not reach anything and stay within the budgets.
	harmless bool
	build    func(k docKind, e attackEnv) payload
}

const (
	hugeBytes     = 200 << 20
	deepLevels    = 100_000
	manyAttrs     = 1_000_000
	quadEntity    = 50_000
	quadRefs      = 10_000
	laughsLevels  = 10
	laughsPerLine = 10
)

var xmlAttacks = []xmlAttack{
	{name: "xxe file", build: func(k docKind, e attackEnv) payload {
		return fixed(`<?xml version="1.0"?><!DOCTYPE ` + k.root + ` [<!ENTITY e SYSTEM "file://` + e.secretFile + `">]>` +
			k.open + `&e;` + k.close)
	}},
	{name: "xxe passwd", build: func(k docKind, e attackEnv) payload {
		return fixed(`<!DOCTYPE ` + k.root + ` [<!ENTITY e SYSTEM "file:///etc/passwd">]>` + k.open + `&e;` + k.close)
	}},
	{name: "xxe loopback url", build: func(k docKind, e attackEnv) payload {
		return fixed(`<!DOCTYPE ` + k.root + ` [<!ENTITY e SYSTEM "` + e.canaryURL + `/xxe">]>` + k.open + `&e;` + k.close)
	}},
	{name: "xxe parameter entity", build: func(k docKind, e attackEnv) payload {
		return fixed(`<!DOCTYPE ` + k.root + ` [<!ENTITY % p SYSTEM "` + e.canaryURL + `/p"> %p;]>` + k.open + `x` + k.close)
	}},
	{name: "external dtd", harmless: true, build: func(k docKind, e attackEnv) payload {
		return fixed(`<!DOCTYPE ` + k.root + ` SYSTEM "` + e.canaryURL + `/dtd">` + k.open + `x` + k.close)
	}},
	{name: "billion laughs", build: func(k docKind, e attackEnv) payload {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><!DOCTYPE ` + k.root + ` [<!ENTITY lol0 "lol">`)
		for i := 1; i < laughsLevels; i++ {
			fmt.Fprintf(&b, `<!ENTITY lol%d "%s">`, i, strings.Repeat(fmt.Sprintf("&lol%d;", i-1), laughsPerLine))
		}
		fmt.Fprintf(&b, `]>%s&lol%d;%s`, k.open, laughsLevels-1, k.close)
		return fixed(b.String())
	}},
	{name: "quadratic blow-up", build: func(k docKind, e attackEnv) payload {
		return fixed(`<!DOCTYPE ` + k.root + ` [<!ENTITY a "` + strings.Repeat("A", quadEntity) + `">]>` +
			k.open + strings.Repeat("&a;", quadRefs) + k.close)
	}},
	{name: "100000-deep nesting", build: func(k docKind, e attackEnv) payload {
		return fixed(k.open + strings.Repeat("<d>", deepLevels) + strings.Repeat("</d>", deepLevels) + k.close)
	}},
	{name: "1000000 attributes", size: true, build: func(k docKind, e attackEnv) payload {
		// Fixed-width names: 12 MB of attributes on one element.
		const format = " a%07d=''"
		head, tail := k.open+"<m", "/>"+k.close
		unit := len(fmt.Sprintf(format, 0))
		return payload{io.MultiReader(strings.NewReader(head), &unitReader{count: manyAttrs, unit: func(i int, dst []byte) []byte {
			return fmt.Appendf(dst, format, i)
		}}, strings.NewReader(tail)), int64(len(head) + unit*manyAttrs + len(tail))}
	}},
	{name: "200 MB body", size: true, build: func(k docKind, e attackEnv) payload {
		const unit = "<i>0123456789abcdef</i>" // 23 bytes
		count := hugeBytes / len(unit)
		return payload{io.MultiReader(strings.NewReader(k.open), &unitReader{count: count, unit: func(_ int, dst []byte) []byte {
			return append(dst, unit...)
		}}, strings.NewReader(k.close)), int64(len(k.open) + count*len(unit) + len(k.close))}
	}},
	{name: "malformed utf-8", build: func(k docKind, e attackEnv) payload {
		return fixed(`<?xml version="1.0" encoding="UTF-8"?>` + k.open + "caf\xe9 \xff\xfe \xc3\x28 \xed\xa0\x80" + k.close)
	}},
	{name: "utf-16 declaration over ascii", build: func(k docKind, e attackEnv) payload {
		return fixed(`<?xml version="1.0" encoding="UTF-16"?>` + k.open + `x` + k.close)
	}},
	{name: "iso-8859-1 declaration over utf-16", build: func(k docKind, e attackEnv) payload {
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="ISO-8859-1"?>`)
		for _, u := range utf16.Encode([]rune(k.open + "x" + k.close)) {
			b.WriteByte(byte(u))
			b.WriteByte(byte(u >> 8))
		}
		return fixed(b.String())
	}},
	{name: "utf-16 bom with utf-8 bytes", build: func(k docKind, e attackEnv) payload {
		return fixed("\xff\xfe" + `<?xml version="1.0" encoding="UTF-16"?>` + k.open + `x` + k.close)
	}},
}

// unitReader streams count units produced by unit, never holding more
// than one buffer of them.
type unitReader struct {
	count, i int
	unit     func(i int, dst []byte) []byte
	buf      []byte
}

func (u *unitReader) Read(p []byte) (int, error) {
	for len(u.buf) < len(p) && u.i < u.count {
		u.buf = u.unit(u.i, u.buf)
		u.i++
	}
	if len(u.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, u.buf)
	u.buf = u.buf[:copy(u.buf, u.buf[n:])]
	return n, nil
}

// jsonString streams src as the content of a JSON string: quotes,
// backslashes and control characters escaped, every other byte (invalid
// UTF-8 included) copied.
type jsonString struct {
	src io.Reader
	buf []byte
	eof bool
}

func (j *jsonString) Read(p []byte) (int, error) {
	for len(j.buf) == 0 {
		if j.eof {
			return 0, io.EOF
		}
		in := make([]byte, 32<<10)
		n, err := j.src.Read(in)
		for _, c := range in[:n] {
			switch {
			case c == '"' || c == '\\':
				j.buf = append(j.buf, '\\', c)
			case c < 0x20:
				j.buf = fmt.Appendf(j.buf, `\u%04x`, c)
			default:
				j.buf = append(j.buf, c)
			}
		}
		if err == io.EOF {
			j.eof = true
		} else if err != nil {
			return 0, err
		}
	}
	n := copy(p, j.buf)
	j.buf = j.buf[:copy(j.buf, j.buf[n:])]
	return n, nil
}
