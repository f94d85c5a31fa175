package soap

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"regexp"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// ErrTooLarge reports an MTOM package whose parts or inlined envelope
// exceed the caller's limit.
var ErrTooLarge = errors.New("soap: MTOM message over the size limit")

// MTOMError reports a malformed MTOM/XOP package.
type MTOMError struct{ Msg string }

// Error describes the malformed package.
func (e *MTOMError) Error() string { return "soap: MTOM: " + e.Msg }

// IsMTOM reports whether a Content-Type is an XOP multipart/related
// package.
func IsMTOM(contentType string) bool {
	mt, params, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "multipart/related" && strings.EqualFold(params["type"], "application/xop+xml")
}

// IsMultipart reports whether a Content-Type is multipart/related: an
// MTOM/XOP package or SOAP with Attachments.
func IsMultipart(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "multipart/related"
}

// InlineMTOM reads a multipart/related; type="application/xop+xml"
// package and returns its root envelope with every <xop:Include
// href="cid:…"/> replaced by the base64 of the referenced part, so that it
// can be parsed as a plain envelope; an element referencing a part SwA
// style (href="cid:…") gets the part's base64 as its content. The root part is the one named by the
// start parameter, else the first. limit bounds the total size of the
// parts read and of the result (0: no limit).
func InlineMTOM(contentType string, body []byte, limit int64, lim xmlstream.Limits) ([]byte, Version, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/related" {
		return nil, 0, &MTOMError{Msg: fmt.Sprintf("content type %q is not multipart/related", contentType)}
	}
	if params["boundary"] == "" {
		return nil, 0, &MTOMError{Msg: "missing boundary parameter"}
	}
	parts, root, err := readParts(body, params, limit)
	if err != nil {
		return nil, 0, err
	}
	v, verr := VersionFromContentType(contentType)
	if verr != nil {
		v, verr = VersionFromContentType(root.contentType)
	}
	out, err := inlineIncludes(root.data, parts, limit, lim)
	if err != nil {
		return nil, 0, err
	}
	if verr != nil {
		v = 0 // decided by the envelope namespace
	}
	return out, v, nil
}

// mimePart is one part of the package.
type mimePart struct {
	id          string // Content-ID without angle brackets
	contentType string
	data        []byte
}

func readParts(body []byte, params map[string]string, limit int64) (map[string]*mimePart, *mimePart, error) {
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	start := strings.Trim(params["start"], "<>")
	parts := map[string]*mimePart{}
	var first, root *mimePart
	var total int64
	for {
		p, err := mr.NextRawPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, &MTOMError{Msg: "reading parts: " + err.Error()}
		}
		mp, err := readPart(p, limit, &total)
		if err != nil {
			return nil, nil, err
		}
		if first == nil {
			first = mp
		}
		if start != "" && mp.id == start {
			root = mp
		}
		if mp.id != "" {
			parts[mp.id] = mp
		}
	}
	if first == nil {
		return nil, nil, &MTOMError{Msg: "no parts"}
	}
	if root == nil {
		if start != "" {
			return nil, nil, &MTOMError{Msg: fmt.Sprintf("no part has the start Content-ID <%s>", start)}
		}
		root = first
	}
	return parts, root, nil
}

func readPart(p *multipart.Part, limit int64, total *int64) (*mimePart, error) {
	mp := &mimePart{id: strings.Trim(strings.TrimSpace(p.Header.Get("Content-Id")), "<>"), contentType: p.Header.Get("Content-Type")}
	r := io.Reader(p)
	if limit > 0 {
		r = io.LimitReader(p, limit-*total+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &MTOMError{Msg: "reading part: " + err.Error()}
	}
	*total += int64(len(data))
	if limit > 0 && *total > limit {
		return nil, ErrTooLarge
	}
	switch strings.ToLower(p.Header.Get("Content-Transfer-Encoding")) {
	case "base64":
		dec, err := base64.StdEncoding.DecodeString(string(bytes.Join(bytes.Fields(data), nil)))
		if err != nil {
			return nil, &MTOMError{Msg: "part <" + mp.id + ">: invalid base64 transfer encoding"}
		}
		data = dec
	case "quoted-printable":
		return nil, &MTOMError{Msg: "part <" + mp.id + ">: quoted-printable transfer encoding is not supported"}
	}
	mp.data = data
	return mp, nil
}

// inlineIncludes copies root, replacing xop:Include elements by the base64
// of the parts they reference, and filling each element that references
// a part SwA style (an empty element with href="cid:…") with the base64
// of that part, its href removed.
func inlineIncludes(root []byte, parts map[string]*mimePart, limit int64, lim xmlstream.Limits) ([]byte, error) {
	r := xmlstream.NewReader(root, lim)
	out := make([]byte, 0, len(root))
	copied := 0
	for {
		before := r.Offset()
		tok, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &MTOMError{Msg: "root part: " + err.Error()}
		}
		if tok.Kind != xmlstream.StartElement {
			continue
		}
		include := tok.Name == xmlstream.Name{Space: NSXOP, Local: "Include"}
		href := hrefAttr(tok.Attrs)
		if !include && !strings.HasPrefix(strings.ToLower(href), "cid:") {
			continue
		}
		tagEnd := r.Offset()
		what := "href"
		if include {
			what = "xop:Include href"
		}
		part, err := findPart(parts, what, href)
		if err != nil {
			return nil, err
		}
		if err := r.Skip(); err != nil {
			return nil, &MTOMError{Msg: "root part: " + err.Error()}
		}
		out = append(out, root[copied:before]...)
		if include {
			out = base64.StdEncoding.AppendEncode(out, part.data)
		} else {
			out = appendSwAElement(out, root[before:tagEnd], tok.Prefix, tok.Name.Local, part.data)
		}
		copied = r.Offset()
		if limit > 0 && int64(len(out)) > limit {
			return nil, ErrTooLarge
		}
	}
	out = append(out, root[copied:]...)
	if limit > 0 && int64(len(out)) > limit {
		return nil, ErrTooLarge
	}
	return out, nil
}

// hrefAttr returns the unqualified href attribute, "" without one.
func hrefAttr(attrs []xmlstream.Attr) string {
	for _, a := range attrs {
		if a.Name.Space == "" && a.Name.Local == "href" {
			return a.Value
		}
	}
	return ""
}

// swaHref matches the unqualified href attribute in a start tag.
var swaHref = regexp.MustCompile(`\shref\s*=\s*("[^"]*"|'[^']*')`)

// appendSwAElement writes an SwA reference element with its href removed
// and the base64 of data as its content.
func appendSwAElement(out, startTag []byte, prefix, local string, data []byte) []byte {
	tag := startTag
	if loc := swaHref.FindIndex(tag); loc != nil {
		out = append(out, tag[:loc[0]]...)
		tag = tag[loc[1]:]
	}
	tag = bytes.TrimRight(bytes.TrimSuffix(tag, []byte(">")), " \t\r\n/")
	out = append(out, tag...)
	out = append(out, '>')
	out = base64.StdEncoding.AppendEncode(out, data)
	out = append(out, "</"...)
	if prefix != "" {
		out = append(out, prefix...)
		out = append(out, ':')
	}
	out = append(out, local...)
	return append(out, '>')
}

func findPart(parts map[string]*mimePart, what, href string) (*mimePart, error) {
	if !strings.HasPrefix(strings.ToLower(href), "cid:") {
		return nil, &MTOMError{Msg: fmt.Sprintf("%s %q is not a cid: URL", what, href)}
	}
	id, err := url.PathUnescape(href[4:])
	if err != nil {
		return nil, &MTOMError{Msg: fmt.Sprintf("%s %q: %v", what, href, err)}
	}
	p, ok := parts[id]
	if !ok {
		return nil, &MTOMError{Msg: fmt.Sprintf("%s references missing part <%s>", strings.TrimSuffix(what, " href"), id)}
	}
	return p, nil
}
