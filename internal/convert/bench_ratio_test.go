package convert

import (
	"io"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/cputime"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// BenchmarkVsReader measures each conversion against internal/xmlstream
// alone, in the same run: after the timed loop of a conversion it reads
// the XML side of that conversion (the envelope converted from, or the
// one written) as many times with a reused Reader and reports
// x-reader = reader time / conversion time, that is the conversion's
// speed as a fraction of the reader's on the same XML bytes. MB/s counts
// the conversion's input (XML for XMLToJSON, JSON for JSONToXML).
// x-reader-cpu is the same ratio of the process's CPU times (getrusage),
// which other processes on a loaded machine disturb much less than wall
// time: the loops run one after the other, so a change of load between
// them skews x-reader but hardly x-reader-cpu.
func BenchmarkVsReader(b *testing.B) {
	p := benchPlan(b)
	for _, s := range benchSizes {
		body := benchBody(s.size)
		b.Run("XMLToJSON/"+s.name, func(b *testing.B) {
			r := xmlstream.NewReader(body, xmlstream.Limits{})
			var out []byte
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			cpu, _ := cputime.Now()
			for b.Loop() {
				r.Reset(body, xmlstream.Limits{})
				if _, err := r.Next(); err != nil {
					b.Fatal(err)
				}
				var err error
				if out, err = p.XMLToJSON(out[:0], r, "/Body"); err != nil {
					b.Fatal(err)
				}
			}
			reportVsReader(b, body, cpu)
		})
		in := benchJSON(b, p, body)
		b.Run("JSONToXML/"+s.name, func(b *testing.B) {
			w := xmlstream.NewWriter(nil)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			cpu, _ := cputime.Now()
			for b.Loop() {
				w.Reset()
				if err := p.JSONToXML(w, in); err != nil {
					b.Fatal(err)
				}
			}
			reportVsReader(b, w.Bytes(), cpu)
		})
	}
}

// benchJSON is the JSON the plan converts body to.
func benchJSON(tb testing.TB, p *Plan, body []byte) []byte {
	r := xmlstream.NewReader(body, xmlstream.Limits{})
	if _, err := r.Next(); err != nil {
		tb.Fatal(err)
	}
	in, err := p.XMLToJSON(nil, r, "/Body")
	if err != nil {
		tb.Fatal(err)
	}
	return in
}

// reportVsReader reads doc b.N times with a reused Reader, outside the
// timer, and reports the ratio of that time to the timed loop's, in wall
// and CPU time (convCPU: the process's CPU time when the loop started).
func reportVsReader(b *testing.B, doc []byte, convCPU time.Duration) {
	conv := b.Elapsed()
	b.StopTimer()
	cpu, ok := cputime.Now()
	convCPU = cpu - convCPU
	r := xmlstream.NewReader(nil, xmlstream.Limits{})
	start := time.Now()
	for range b.N {
		r.Reset(doc, xmlstream.Limits{})
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	read := time.Since(start)
	if end, _ := cputime.Now(); ok && convCPU > 0 {
		b.ReportMetric(float64(end-cpu)/float64(convCPU), "x-reader-cpu")
	}
	b.ReportMetric(float64(len(doc))*float64(b.N)/read.Seconds()/1e6, "reader-MB/s")
	b.ReportMetric(read.Seconds()/conv.Seconds(), "x-reader")
}

// BenchmarkFloorVsReader is the floor of XML -> JSON with this reader: it
// walks the same envelope as BenchmarkVsReader's XMLToJSON with the calls
// the converter makes (ReadToken, ElementText for leaves) and writes each
// element's name and quoted text, but matches nothing against a schema
// and checks no value. Its x-reader bounds what the converter can reach.
func BenchmarkFloorVsReader(b *testing.B) {
	for _, s := range benchSizes {
		body := benchBody(s.size)
		b.Run(s.name, func(b *testing.B) {
			r := xmlstream.NewReader(body, xmlstream.Limits{})
			var out, buf []byte
			var tok, child xmlstream.Token
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			cpu, _ := cputime.Now()
			for b.Loop() {
				r.Reset(body, xmlstream.Limits{})
				out = floorWalk(b, r, out[:0], &buf, &tok, &child)
			}
			reportVsReader(b, body, cpu)
		})
	}
}

// floorWalk writes "name":"text" for every leaf and "name":{ for every
// other element, through the end of the document.
func floorWalk(b *testing.B, r *xmlstream.Reader, out []byte, buf *[]byte, tok, child *xmlstream.Token) []byte {
	pending := false // tok is a start element not read yet
	for {
		if !pending {
			if err := r.ReadToken(tok); err == io.EOF {
				return out
			} else if err != nil {
				b.Fatal(err)
			}
		}
		pending = false
		switch tok.Kind {
		case xmlstream.EndElement:
			out = append(out, '}')
		case xmlstream.StartElement:
			out = appendQuoted(out, tok.Name.Local)
			out = append(out, ':')
			text, ended, err := r.ElementText(buf, child)
			if err != nil {
				b.Fatal(err)
			}
			if ended {
				out = appendQuoted(out, text)
				continue
			}
			out = append(out, '{')
			*tok, pending = *child, true
		}
	}
}
