package server

import (
	"bytes"
	"github.com/s2r-project/s2r/internal/engine"
	"io"
	"net"
)

// Request framing (anti request smuggling). net/http reads some request
// heads leniently that a proxy in front of s2r may frame differently: it
// takes Transfer-Encoding over a Content-Length in the same request and
// keeps the connection, joins obsolete folded header lines, and accepts
// bare LF line ends. A front proxy that framed such a request by its
// Content-Length, or split the folded line, would see a different next
// request on the connection than s2r does: a request smuggled past the
// proxy's checks (the admin API trusts identity headers the proxy sets).
//
// strictConn reads the framing of every request on a connection ahead of
// net/http: it holds each request head back until it is complete and
// checks it. A head with both Content-Length and Transfer-Encoding,
// Transfer-Encoding on HTTP/1.0, an obsolete line fold, or a line not
// ended by CRLF is never given to net/http: a synthetic request in its
// place carries the reason (framingHeader with the connection's token),
// which the handler chain (framingRefusal) answers with 400 S2R-VAL-0400 and
// Connection: close, after the answers of earlier requests on the
// connection, and nothing after it is read. Bodies pass through
// untouched; chunked bodies are followed to find the next head. Where
// the check cannot follow the framing (a malformed chunk, which net/http
// refuses as well), the connection ends there: no byte is ever given to
// net/http that the check has not framed.

// maxHeadBytes bounds a held-back head: net/http's MaxHeaderBytes plus its
// slack; a longer head is passed on for net/http to refuse (431).
const maxHeadBytes = 1<<20 + 4096

// maxChunkLine bounds a chunk-size line (size and extensions).
const maxChunkLine = 4096

type framingState int

const (
	stateHead    framingState = iota // collecting a request head
	stateBody                        // left bytes of a Content-Length body
	stateChunk                       // a chunk-size line
	stateData                        // left bytes of a chunk, then CRLF
	stateTrailer                     // trailer lines after the last chunk
	stateRefused                     // refused or framing lost: nothing more is read
)

// strictConn is a server connection whose request framing is checked.
type strictConn struct {
	net.Conn
	token  string
	state  framingState
	left   int64        // stateBody, stateData: bytes left (stateData: plus CRLF)
	line   bytes.Buffer // stateChunk, stateTrailer: the current line
	head   bytes.Buffer // stateHead: the head so far
	out    []byte       // bytes ready for net/http
	outBuf []byte       // out's buffer
	raw    []byte       // read buffer
}

func newStrictConn(c net.Conn, token string) *strictConn {
	// A head usually fits a few KB; body bytes mostly bypass raw (Read).
	sc := &strictConn{Conn: c, token: token, raw: make([]byte, 4<<10), outBuf: make([]byte, 0, 8<<10)}
	sc.out = sc.outBuf
	return sc
}

// Read gives net/http the next checked bytes.
func (c *strictConn) Read(p []byte) (int, error) {
	if len(c.out) == 0 && len(p) > 0 && c.state == stateBody {
		// Body bytes go straight to the caller: counted, not copied.
		if int64(len(p)) > c.left {
			p = p[:c.left]
		}
		n, err := c.Conn.Read(p)
		if c.left -= int64(n); c.left == 0 {
			c.state = stateHead
		}
		return n, err
	}
	for len(c.out) == 0 {
		if c.state == stateRefused {
			return 0, io.EOF
		}
		n, err := c.Conn.Read(c.raw)
		if n > 0 {
			c.feed(c.raw[:n])
		}
		if len(c.out) > 0 {
			break
		}
		if err != nil {
			if err == io.EOF && c.head.Len() > 0 && c.state == stateHead {
				// An incomplete head at EOF: net/http sees it end there.
				c.out, c.state = append(c.out, c.head.Bytes()...), stateRefused
				c.head.Reset()
				break
			}
			// A deadline (net/http aborting its background read) keeps
			// the partial head for the next Read; other errors end the
			// connection anyway.
			return 0, err
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	if len(c.out) == 0 {
		c.out = c.outBuf[:0] // keep the buffer for the next head
	}
	return n, nil
}

// feed frames b, appending what net/http may read to c.out.
func (c *strictConn) feed(b []byte) {
	for len(b) > 0 {
		switch c.state {
		case stateHead:
			b = c.feedHead(b)
		case stateBody:
			n := min(int64(len(b)), c.left)
			c.out = append(c.out, b[:n]...)
			b, c.left = b[n:], c.left-n
			if c.left == 0 {
				c.state = stateHead
			}
		case stateData:
			n := min(int64(len(b)), c.left)
			c.out = append(c.out, b[:n]...)
			b, c.left = b[n:], c.left-n
			if c.left == 0 {
				c.state = stateChunk
			}
		case stateChunk, stateTrailer:
			b = c.feedLine(b)
		case stateRefused:
			return
		}
	}
}

// feedHead collects head bytes until the empty line, then checks the
// head and releases it (or its refusal).
func (c *strictConn) feedHead(b []byte) []byte {
	if c.head.Len() == 0 {
		// Empty lines before a request line are allowed (RFC 9112 2.2).
		for len(b) > 0 && (b[0] == '\r' || b[0] == '\n') {
			c.out, b = append(c.out, b[0]), b[1:]
		}
		if len(b) == 0 {
			return nil
		}
	}
	var head, rest []byte
	if c.head.Len() == 0 {
		// Usually the whole head arrives in one read: check it in place.
		if end := engine.HeadEnd(b, 0); end >= 0 {
			head, rest = b[:end], b[end:]
		}
	}
	if head == nil {
		prev := c.head.Len()
		c.head.Write(b)
		end := engine.HeadEnd(c.head.Bytes(), prev)
		if end < 0 {
			if c.head.Len() > maxHeadBytes {
				c.refuse("the request head is over 1 MB")
			}
			return nil
		}
		head = c.head.Bytes()[:end]
		rest = append([]byte(nil), c.head.Bytes()[end:]...)
		c.head.Reset()
	}
	f, reason := engine.CheckHead(head)
	if reason != "" {
		c.refuse(reason)
		return nil
	}
	c.out = append(c.out, head...)
	switch {
	case f.Chunked:
		c.state = stateChunk
	case f.Length > 0:
		c.state, c.left = stateBody, f.Length
	}
	return rest
}

// refuse gives net/http the synthetic request that answers the refusal
// (framingRefusal) and ends the connection after it.
func (c *strictConn) refuse(reason string) {
	c.head.Reset()
	c.out = append(c.out, "GET / HTTP/1.1\r\nHost: refused\r\nConnection: close\r\n"+
		framingHeader+": "+c.token+" "+reason+"\r\n\r\n"...)
	c.state = stateRefused
}

// feedLine passes a chunk-size or trailer line through and moves on.
func (c *strictConn) feedLine(b []byte) []byte {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		c.line.Write(b)
		c.out = append(c.out, b...)
		if c.line.Len() > maxChunkLine {
			c.state = stateRefused // net/http refuses it too
		}
		return nil
	}
	c.line.Write(b[:i+1])
	c.out = append(c.out, b[:i+1]...)
	line := c.line.Bytes()
	c.line.Reset()
	if len(line) < 2 || line[len(line)-2] != '\r' {
		c.state = stateRefused // bare LF: net/http refuses it too
		return nil
	}
	line = line[:len(line)-2]
	if c.state == stateTrailer {
		if len(line) == 0 {
			c.state = stateHead
		}
		return b[i+1:]
	}
	size, ok := engine.ChunkSize(line)
	switch {
	case !ok:
		c.state = stateRefused // net/http refuses it too
		return nil
	case size == 0:
		c.state = stateTrailer
	default:
		c.state, c.left = stateData, size+2 // the data and its CRLF
	}
	return b[i+1:]
}

// strictListener wraps every accepted connection in a strictConn.
type strictListener struct {
	net.Listener
	token string
}

func (l strictListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newStrictConn(c, l.token), nil
}
