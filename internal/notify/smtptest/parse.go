package smtptest

import (
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
)

// Parsed is a message split into what tests check: its header, its
// decoded subject and the decoded text of its text/plain and text/html
// parts (the first of each, at any multipart depth).
type Parsed struct {
	Header  mail.Header
	Subject string
	Text    string
	HTML    string
}

// Parse reads an RFC 5322 message. A message with no text/plain part is
// an error.
func Parse(r io.Reader) (Parsed, error) {
	m, err := mail.ReadMessage(r)
	if err != nil {
		return Parsed{}, err
	}
	p := Parsed{Header: m.Header}
	dec := new(mime.WordDecoder)
	if p.Subject, err = dec.DecodeHeader(m.Header.Get("Subject")); err != nil {
		return Parsed{}, fmt.Errorf("subject: %w", err)
	}
	if err := p.walk(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body, 0); err != nil {
		return Parsed{}, err
	}
	if p.Text == "" {
		return Parsed{}, errNoText
	}
	return p, nil
}

// walk visits one MIME entity.
func (p *Parsed) walk(contentType, encoding string, body io.Reader, depth int) error {
	if depth > 5 {
		return fmt.Errorf("multipart nesting too deep")
	}
	if contentType == "" {
		contentType = "text/plain; charset=us-ascii"
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return fmt.Errorf("content type %q: %w", contentType, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextRawPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := p.walk(part.Header.Get("Content-Type"), part.Header.Get("Content-Transfer-Encoding"), part, depth+1); err != nil {
				return err
			}
		}
	}
	text, err := decodeBody(encoding, body)
	if err != nil {
		return err
	}
	switch {
	case mt == "text/plain" && p.Text == "":
		p.Text = text
	case mt == "text/html" && p.HTML == "":
		p.HTML = text
	}
	return nil
}

// decodeBody undoes a Content-Transfer-Encoding.
func decodeBody(encoding string, body io.Reader) (string, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, &lineJoiner{r: body})
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return "", fmt.Errorf("decode %s body: %w", encoding, err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n"), nil
}

// lineJoiner drops CR and LF so base64 lines decode as one stream.
type lineJoiner struct{ r io.Reader }

func (l *lineJoiner) Read(b []byte) (int, error) {
	n, err := l.r.Read(b)
	j := 0
	for _, c := range b[:n] {
		if c != '\r' && c != '\n' {
			b[j] = c
			j++
		}
	}
	return j, err
}
