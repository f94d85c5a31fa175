// Command floorproxy is the lowest floor of scripts/bench-gateway.sh
// (FLOOR=1): the least a Go proxy with a goroutine per connection can do.
// Each client connection gets its own backend connection; a request is
// read whole (Content-Length or chunked, framing copied as it is), its
// target replaced by the backend path, written in one write, and the
// answer copied back the same way. No header is parsed beyond framing, no
// routing, guard, record, metric or log, no pooling; it is not a proxy
// anyone should run. It shows what the Go runtime and the kernel cost per
// request on the machine, against nginx on the same machine.
//
//	floorproxy -addr 127.0.0.1:18185 -backend 127.0.0.1:18181 -path /calc
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"io"
	"log"
	"net"
	"strconv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18185", "listen address")
	backend := flag.String("backend", "127.0.0.1:18181", "backend host:port")
	path := flag.String("path", "/calc", "backend request target")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go relay(c, *backend, *path)
	}
}

// relay serves one client connection over its own backend connection.
func relay(c net.Conn, backend, path string) {
	defer c.Close()
	b, err := net.Dial("tcp", backend)
	if err != nil {
		return
	}
	defer b.Close()
	cr, br := bufio.NewReaderSize(c, 8<<10), bufio.NewReaderSize(b, 8<<10)
	msg, out := make([]byte, 0, 16<<10), make([]byte, 0, 16<<10)
	for {
		if msg, err = readMessage(cr, msg[:0]); err != nil {
			return
		}
		out = retarget(out[:0], msg, path)
		if _, err := b.Write(out); err != nil {
			return
		}
		if msg, err = readMessage(br, msg[:0]); err != nil {
			return
		}
		if _, err := c.Write(msg); err != nil {
			return
		}
	}
}

// retarget appends msg to out with its request target replaced by path.
func retarget(out, msg []byte, path string) []byte {
	sp := bytes.IndexByte(msg, ' ')
	end := sp + 1 + bytes.IndexByte(msg[sp+1:], ' ')
	out = append(out, msg[:sp+1]...)
	out = append(out, path...)
	return append(out, msg[end:]...)
}

var errFraming = errors.New("unsupported framing")

// readMessage appends one HTTP/1.1 message (head and body) read from r.
func readMessage(r *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		buf = append(buf, line...)
		if len(line) == 2 {
			break
		}
	}
	head := bytes.ToLower(buf)
	if bytes.Contains(head, []byte("transfer-encoding: chunked")) {
		return readChunks(r, buf)
	}
	n := 0
	if i := bytes.Index(head, []byte("content-length:")); i >= 0 {
		line := head[i+len("content-length:"):]
		line = line[:bytes.IndexByte(line, '\r')]
		var err error
		if n, err = strconv.Atoi(string(bytes.TrimSpace(line))); err != nil {
			return nil, errFraming
		}
	}
	start := len(buf)
	buf = append(buf, make([]byte, n)...)
	_, err := io.ReadFull(r, buf[start:])
	return buf, err
}

// readChunks appends a chunked body as it is.
func readChunks(r *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		buf = append(buf, line...)
		size, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
		if err != nil {
			return nil, errFraming
		}
		if size == 0 {
			end, err := r.ReadSlice('\n')
			return append(buf, end...), err
		}
		start := len(buf)
		buf = append(buf, make([]byte, size+2)...)
		if _, err := io.ReadFull(r, buf[start:]); err != nil {
			return nil, err
		}
	}
}
