package engine

import (
	"bytes"
	"strconv"
	"strings"
)

// The strict request-head check shared by both HTTP servers of s2r: the
// engine applies it to every head it parses, and the net/http listeners
// apply it ahead of net/http (internal/server/framing.go). A head with
// both Content-Length and Transfer-Encoding, Transfer-Encoding on
// HTTP/1.0, an obsolete line fold, or a line not ended by CRLF is refused
// (request smuggling, docs/security.md).

// HeadEnd returns the length of the head in b up to and including the
// empty line that ends it, or -1; the search resumes near from.
func HeadEnd(b []byte, from int) int {
	start := max(from-3, 0)
	if i := bytes.Index(b[start:], []byte("\r\n\r\n")); i >= 0 {
		return start + i + 4
	}
	// A head ended by bare LFs is found here too, to be refused.
	if i := bytes.Index(b[start:], []byte("\n\n")); i >= 0 {
		return start + i + 2
	}
	if i := bytes.Index(b[start:], []byte("\n\r\n")); i >= 0 {
		return start + i + 3
	}
	return -1
}

// Framing is how a checked head's body is delimited.
type Framing struct {
	Chunked bool
	Length  int64
}

// CheckHead checks a complete request head and returns its body framing,
// or the reason to refuse it.
func CheckHead(head []byte) (Framing, string) {
	for i, c := range head {
		switch {
		case c == '\n' && (i == 0 || head[i-1] != '\r'):
			return Framing{}, "a line of the request head ends with a bare LF"
		case c == '\r' && (i+1 == len(head) || head[i+1] != '\n'):
			return Framing{}, "a line of the request head ends with a bare CR"
		}
	}
	lines := strings.Split(strings.TrimSuffix(string(head), "\r\n\r\n"), "\r\n")
	version := lines[0][strings.LastIndexByte(lines[0], ' ')+1:]
	if version != "HTTP/1.1" && version != "HTTP/1.0" {
		return Framing{}, "the request line does not end with HTTP/1.1 or HTTP/1.0"
	}
	var lengths, encodings []string
	for _, l := range lines[1:] {
		if l == "" {
			continue
		}
		if l[0] == ' ' || l[0] == '\t' {
			return Framing{}, "the request head holds an obsolete folded header line"
		}
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			return Framing{}, "a header line of the request has no colon"
		}
		switch strings.ToLower(name) {
		case "content-length":
			lengths = append(lengths, strings.TrimSpace(value))
		case "transfer-encoding":
			encodings = append(encodings, strings.TrimSpace(value))
		}
	}
	switch {
	case len(encodings) > 0 && len(lengths) > 0:
		return Framing{}, "the request has both Content-Length and Transfer-Encoding"
	case len(encodings) > 0 && version == "HTTP/1.0":
		return Framing{}, "an HTTP/1.0 request has Transfer-Encoding"
	case len(encodings) == 1 && strings.EqualFold(encodings[0], "chunked"):
		return Framing{Chunked: true}, ""
	case len(encodings) > 0:
		return Framing{}, "the request's Transfer-Encoding is not chunked alone"
	}
	if len(lengths) == 0 {
		return Framing{}, ""
	}
	for _, l := range lengths[1:] {
		if l != lengths[0] {
			return Framing{}, "the request has differing Content-Length values"
		}
	}
	n, err := strconv.ParseInt(lengths[0], 10, 64)
	if err != nil || n < 0 || strings.HasPrefix(lengths[0], "+") {
		return Framing{}, "the request has an invalid Content-Length"
	}
	return Framing{Length: n}, ""
}

// ChunkSize parses the hexadecimal size of a chunk-size line (without
// its CRLF), ignoring extensions after ';'.
func ChunkSize(line []byte) (int64, bool) {
	if bytes.IndexByte(line, '\r') >= 0 {
		return 0, false // a bare CR, in an extension too (net/http refuses it)
	}
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, " \t")
	if len(line) == 0 || len(line) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range line {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int64(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int64(c-'A'+10)
		default:
			return 0, false
		}
	}
	return n, true
}
