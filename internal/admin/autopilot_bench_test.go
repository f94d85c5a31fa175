package admin

import (
	"bytes"
	"io"
	"log/slog"
	"net/http/httptest"

	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/access"

	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// Shape of the synthetic autopilot WSDL: operations over a pool of
// record types with nested groups, arrays, attributes and enumerations.
const (
	synthOperations = 1200
	synthRecords    = 1400
	synthCodes      = 40
)

// autopilotSynthWSDL writes a document/literal WSDL with synthOperations operations
// and about 2 MB of schema.
func autopilotSynthWSDL() string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:synth" xmlns:d="urn:synth:data" targetNamespace="urn:synth">
<types><xs:schema targetNamespace="urn:synth:data" elementFormDefault="qualified">
`)
	for c := range synthCodes {
		fmt.Fprintf(&b, `<xs:simpleType name="Code%d"><xs:restriction base="xs:token">`, c)
		for v := range 10 {
			fmt.Fprintf(&b, `<xs:enumeration value="C%d-%d"/>`, c, v)
		}
		b.WriteString("</xs:restriction></xs:simpleType>\n")
	}
	for i := range synthRecords {
		fmt.Fprintf(&b, `<xs:complexType name="Record%d"><xs:sequence>`+
			`<xs:element name="key" type="xs:string"/><xs:element name="label%d" type="xs:string" minOccurs="0"/>`+
			`<xs:element name="quantity" type="xs:int"/><xs:element name="price" type="xs:decimal" nillable="true"/>`+
			`<xs:element name="code" type="d:Code%d"/><xs:element name="when" type="xs:dateTime" minOccurs="0"/>`+
			`<xs:element name="part" type="d:Record%d" minOccurs="0" maxOccurs="unbounded"/>`+
			`<xs:element name="extra" minOccurs="0"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string" maxOccurs="3"/></xs:sequence><xs:attribute name="lang" type="xs:language"/></xs:complexType></xs:element>`+
			`</xs:sequence><xs:attribute name="rev" type="xs:int"/></xs:complexType>`+"\n",
			i, i, i%synthCodes, (i*11+5)%synthRecords)
	}
	for i := range synthOperations {
		fmt.Fprintf(&b, `<xs:element name="Call%d"><xs:complexType><xs:sequence><xs:element name="ref" type="xs:string"/>`+
			`<xs:element name="record" type="d:Record%d"/><xs:element name="more" type="d:Record%d" minOccurs="0" maxOccurs="unbounded"/>`+
			`<xs:element name="page" type="xs:int" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>`+"\n"+
			`<xs:element name="Call%dResponse"><xs:complexType><xs:sequence><xs:element name="out" type="d:Record%d" maxOccurs="unbounded"/>`+
			`<xs:element name="count" type="xs:long"/></xs:sequence></xs:complexType></xs:element>`+"\n",
			i, i%synthRecords, (i*7)%synthRecords, i, (i*3+1)%synthRecords)
	}
	b.WriteString("</xs:schema></types>\n")
	for i := range synthOperations {
		fmt.Fprintf(&b, `<message name="Call%dIn"><part name="parameters" element="d:Call%d"/></message>`+
			`<message name="Call%dOut"><part name="parameters" element="d:Call%dResponse"/></message>`+"\n", i, i, i, i)
	}
	b.WriteString(`<portType name="SynthPT">`)
	for i := range synthOperations {
		fmt.Fprintf(&b, `<operation name="Call%d"><input message="tns:Call%dIn"/><output message="tns:Call%dOut"/></operation>`+"\n", i, i, i)
	}
	b.WriteString(`</portType><binding name="SynthB" type="tns:SynthPT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>`)
	for i := range synthOperations {
		fmt.Fprintf(&b, `<operation name="Call%d"><soap:operation soapAction="urn:synth:Call%d"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>`+"\n", i, i)
	}
	b.WriteString(`</binding><service name="SynthService"><port name="SynthPort" binding="tns:SynthB"><soap:address location="http://10.0.0.7/synth"/></port></service></definitions>`)
	return b.String()
}

// heapPeak samples the live heap until stopped and keeps the maximum.
type heapPeak struct {
	peak atomic.Uint64
	stop chan struct{}
	wg   sync.WaitGroup
}

func startHeapPeak() *heapPeak {
	h := &heapPeak{stop: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	h.wg.Go(func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > h.peak.Load() {
				h.peak.Store(v)
			}
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	})
	return h
}

func (h *heapPeak) done() float64 {
	close(h.stop)
	h.wg.Wait()
	return float64(h.peak.Load()) / (1 << 20)
}

// BenchmarkAutopilotLarge measures autopilot of the synthetic WSDL
// (1,200 operations, about 2 MB of schema) through the HTTP handler on
// SQLite: parse and compile, artifact, service, draft, 1,200 operations
// and mappings, backend profile, then readiness. The parse sub-benchmark
// is the baseline: wsdl.ParseFiles of the same document alone.
func BenchmarkAutopilotLarge(b *testing.B) {
	doc := autopilotSynthWSDL()
	b.Run("parse", func(b *testing.B) {
		files := map[string][]byte{"synth.wsdl": []byte(doc)}
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		peak := startHeapPeak()
		for b.Loop() {
			defs, err := wsdl.ParseFiles(context.Background(), "synth.wsdl", files)
			if err != nil || len(defs.Operations()) != synthOperations {
				b.Fatal(err)
			}
		}
		b.ReportMetric(peak.done(), "peak-heap-MB")
	})
	b.Run("autopilot-sqlite", func(b *testing.B) {
		url := benchServer(b)
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		peak := startHeapPeak()
		n := 0
		for b.Loop() {
			n++
			body, _ := json.Marshal(map[string]any{"xml": doc, "environment": "bench", "serviceKey": fmt.Sprintf("synth-%d", n)})
			req, _ := http.NewRequest("POST", url+"/admin/v1/wsdl/import-xml:autopilot", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(access.HeaderEmail, rootEmail)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				b.Fatalf("status %d: %.300s", resp.StatusCode, out)
			}
		}
		b.ReportMetric(peak.done(), "peak-heap-MB")
	})
}

// benchServer serves the admin API on a fresh SQLite store; root is a
// bootstrap admin.
func benchServer(b *testing.B) string {
	b.Helper()
	s := newServer(Config{Store: storetest.SQLite(b), Logger: slog.New(slog.DiscardHandler), BootstrapAdmins: []string{rootEmail}})
	ts := httptest.NewServer(s)
	b.Cleanup(ts.Close)
	return ts.URL
}
