package load

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// synthWSDL is a document/literal WSDL of n operations, each with a
// request and a response of a few typed fields and a repeated record.
func synthWSDL(n int) string {
	var types, msgs, ops, binds strings.Builder
	for i := range n {
		fmt.Fprintf(&types, `<xs:element name="Op%d"><xs:complexType><xs:sequence><xs:element name="id" type="xs:long"/>`+
			`<xs:element name="name" type="xs:string"/><xs:element name="amount" type="xs:decimal" minOccurs="0"/>`+
			`<xs:element name="rec" type="tns:Rec" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`+
			`<xs:element name="Op%dResponse"><xs:complexType><xs:sequence><xs:element name="ok" type="xs:boolean"/>`+
			`<xs:element name="rec" type="tns:Rec" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`, i, i)
		fmt.Fprintf(&msgs, `<message name="Op%dIn"><part name="p" element="tns:Op%d"/></message><message name="Op%dOut"><part name="p" element="tns:Op%dResponse"/></message>`, i, i, i, i)
		fmt.Fprintf(&ops, `<operation name="Op%d"><input message="tns:Op%dIn"/><output message="tns:Op%dOut"/></operation>`, i, i, i)
		fmt.Fprintf(&binds, `<operation name="Op%d"><soap:operation soapAction="urn:op%d"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>`, i, i)
	}
	return `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" ` +
		`xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:synth" targetNamespace="urn:synth">` +
		`<types><xs:schema targetNamespace="urn:synth" elementFormDefault="qualified">` +
		`<xs:complexType name="Rec"><xs:sequence><xs:element name="k" type="xs:string"/><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType>` +
		types.String() + `</xs:schema></types>` + msgs.String() + `<portType name="P">` + ops.String() + `</portType>` +
		`<binding name="B" type="tns:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>` + binds.String() + `</binding>` +
		`<service name="S"><port name="P" binding="tns:B"><soap:address location="http://localhost/x"/></port></service></definitions>`
}

// BenchmarkLoadTable measures a reload of a 300-operation service: cold
// (every operation compiled) and warm (nothing changed since the last
// load, every compiled operation reused).
func BenchmarkLoadTable(b *testing.B) {
	const n = 300
	st := storetest.SQLite(b)
	box := admintest.Box(b)
	a := newAdminClient(b, st, box)
	a.importActive([]byte(synthWSDL(n)), "synth")
	cache := contracts.New(st)
	ctx := context.Background()
	check := func(tbl *routing.Table) {
		if s := tbl.Lookup("publish", "dev", "synth"); s == nil || len(s.Operations) != n {
			b.Fatalf("table = %+v", tbl.Errors())
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			tbl, err := Table(ctx, Config{Store: st, Secrets: box, Contracts: cache, Ops: routing.NewOpCache()})
			if err != nil {
				b.Fatal(err)
			}
			check(tbl)
		}
	})
	b.Run("warm", func(b *testing.B) {
		cfg := Config{Store: st, Secrets: box, Contracts: cache, Ops: routing.NewOpCache()}
		if _, err := Table(ctx, cfg); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for b.Loop() {
			tbl, err := Table(ctx, cfg)
			if err != nil {
				b.Fatal(err)
			}
			check(tbl)
		}
	})
}
