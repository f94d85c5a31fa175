package xmlstream

import (
	"bytes"
	"strings"
)

// checkChars validates the characters of d[start:end] and reports whether
// any carriage return needs normalizing.
func (r *Reader) checkChars(start, end int, where string) (hasCR bool, err error) {
	d := r.data
	for i := start; i < end; {
		c := d[i]
		switch textClass[c] {
		case clsHigh:
			n, err := r.checkRune(i, where)
			if err != nil {
				return false, err
			}
			i += n
			continue
		case clsControl:
			return false, r.errAt(i, "character %U is not allowed in XML (in %s)", rune(c), where)
		}
		hasCR = hasCR || c == '\r'
		i++
	}
	return hasCR, nil
}

// markupData validates d[start:end] and returns it with line ends
// normalized.
func (r *Reader) markupData(start, end int, where string) ([]byte, error) {
	hasCR, err := r.checkChars(start, end, where)
	if err != nil || !hasCR {
		return r.data[start:end], err
	}
	out := r.buf[:0]
	b := r.data[start:end]
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' {
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			c = '\n'
		}
		out = append(out, c)
	}
	r.buf = out
	return out, nil
}

// readProcInst reads <?target body?>. Data holds the target and the body.
func (r *Reader) readProcInst() error {
	start := r.pos
	nameEnd, end, err := r.scanProcInst(start)
	if err != nil {
		return err
	}
	if target := r.data[start+2 : nameEnd]; len(target) == 3 && strings.EqualFold(string(target), "xml") {
		if string(target) != "xml" || start != r.bomLen() || r.state != inProlog {
			return r.errAt(start, "the XML declaration must come first, and processing instruction targets named xml are reserved")
		}
		if err := r.declaration(nameEnd, end); err != nil {
			return err
		}
	}
	data, err := r.markupData(start+2, end, "a processing instruction")
	if err != nil {
		return err
	}
	r.pos = end + 2
	r.setData(ProcInst, data, false)
	return nil
}

// scanProcInst checks the processing instruction at start: <?, a target
// name, then ?> or white space, a body and ?>. It returns the end of the
// target and the offset of the closing ?>.
func (r *Reader) scanProcInst(start int) (nameEnd, end int, err error) {
	d := r.data
	nameEnd, err = r.scanName(start + 2)
	if err != nil {
		return 0, 0, err
	}
	target := d[start+2 : nameEnd]
	if len(target) == 0 {
		return 0, 0, r.errAt(start, "expected a processing instruction target after <?")
	}
	end = bytes.Index(d[nameEnd:], []byte("?>"))
	if end < 0 {
		return 0, 0, r.errAt(start, "unterminated processing instruction <?%s", target)
	}
	end += nameEnd
	if end > nameEnd && !isSpace(d[nameEnd]) {
		return 0, 0, r.errAt(nameEnd, "expected white space after the processing instruction target %s", target)
	}
	return nameEnd, end, nil
}

func (r *Reader) bomLen() int {
	if bytes.HasPrefix(r.data, []byte("\xEF\xBB\xBF")) {
		return 3
	}
	return 0
}

// readBang reads a comment, a CDATA section or a DOCTYPE.
func (r *Reader) readBang() error {
	rest := r.data[r.pos:]
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		return r.readComment()
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		if r.state != inRoot {
			return r.errAt(r.pos, "CDATA section outside the root element")
		}
		return r.readCDATA()
	case bytes.HasPrefix(rest, []byte("<!DOCTYPE")):
		return r.readDoctype()
	}
	return r.errAt(r.pos, "unknown markup declaration starting with <! (only comments, CDATA sections and DOCTYPE are allowed)")
}

// readComment reads <!-- ... -->, where "--" may not appear inside.
func (r *Reader) readComment() error {
	d := r.data
	start := r.pos + 4
	i := bytes.Index(d[start:], []byte("--"))
	if i < 0 {
		return r.errAt(r.pos, "unterminated comment")
	}
	end := start + i
	if end+2 >= len(d) || d[end+2] != '>' {
		return r.errAt(end, "-- is not allowed inside a comment")
	}
	data, err := r.markupData(start, end, "a comment")
	if err != nil {
		return err
	}
	r.pos = end + 3
	r.setData(Comment, data, false)
	return nil
}

// readCDATA reads <![CDATA[ ... ]]>.
func (r *Reader) readCDATA() error {
	d := r.data
	start := r.pos + 9
	i := bytes.Index(d[start:], []byte("]]>"))
	if i < 0 {
		return r.errAt(r.pos, "unterminated CDATA section")
	}
	data, err := r.markupData(start, start+i, "a CDATA section")
	if err != nil {
		return err
	}
	r.pos = start + i + 3
	r.setData(CharData, data, true)
	return nil
}
