package contracts_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// calcWSDL returns a small document/literal WSDL whose namespace and
// operation names carry tag, so artifacts of different tags differ.
func calcWSDL(tag string) []byte {
	return []byte(fmt.Sprintf(`<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:calc:%[1]s" targetNamespace="urn:calc:%[1]s">
  <wsdl:types>
    <xs:schema targetNamespace="urn:calc:%[1]s" elementFormDefault="qualified">
      <xs:include schemaLocation="types/calc.xsd"/>
    </xs:schema>
  </wsdl:types>
  <wsdl:message name="AddIn"><wsdl:part name="p" element="tns:Add"/></wsdl:message>
  <wsdl:message name="AddOut"><wsdl:part name="p" element="tns:AddResponse"/></wsdl:message>
  <wsdl:portType name="CalcPT"><wsdl:operation name="Add%[1]s"><wsdl:input message="tns:AddIn"/><wsdl:output message="tns:AddOut"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="CalcB" type="tns:CalcPT"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Add%[1]s"><soap:operation soapAction="urn:add"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Calc"><wsdl:port name="CalcSoap" binding="tns:CalcB"><soap:address location="http://10.0.0.5/calc"/></wsdl:port></wsdl:service>
</wsdl:definitions>`, tag))
}

const calcXSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="Add"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="AddResponse"><xs:complexType><xs:sequence><xs:element name="result" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`

func insertCalc(t *testing.T, s *store.Store, id, tag string) model.Artifact {
	t.Helper()
	ctx := context.Background()
	files := map[string][]byte{"calc.wsdl": calcWSDL(tag), "types/calc.xsd": []byte(calcXSD)}
	a := model.Artifact{ArtifactID: id, CreatedAt: time.Now(), CreatedBy: "t@example.com",
		SourceKind: model.ArtifactXML, RootPath: "calc.wsdl", Files: files,
		ContentSHA256: model.ArtifactContentHash("calc.wsdl", files), TargetNamespace: "urn:calc:" + tag}
	if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertArtifact(ctx, a) }); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestCacheDefinitionsAndOperation(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	insertCalc(t, s, "a1", "x")
	c := contracts.New(s)

	var wg sync.WaitGroup
	got := make([]*wsdl.Definitions, 8)
	for i := range got {
		wg.Go(func() {
			d, err := c.Definitions(ctx, "a1")
			if err != nil {
				t.Error(err)
			}
			got[i] = d
		})
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("concurrent loads returned different Definitions (%d)", i)
		}
	}
	op, err := c.Operation(ctx, "a1", "", "", "Addx")
	if err != nil {
		t.Fatal(err)
	}
	if op.SOAPAction != "urn:add" || op.Input == nil || len(op.Input.Parts) != 1 || op.Input.Parts[0].Element.Name.Local != "Add" {
		t.Errorf("operation = %+v", op)
	}
	for _, k := range [][2]string{{"", ""}, {"Calc", ""}, {"", "CalcSoap"}, {"Calc", "CalcSoap"}} {
		want, _ := got[0].Operation(k[0], k[1], "Addx")
		if op2, err := c.Operation(ctx, "a1", k[0], k[1], "Addx"); err != nil || op2 != want {
			t.Errorf("Operation(%q, %q) = %p, %v; want %p", k[0], k[1], op2, err, want)
		}
	}
	if _, err := c.Operation(ctx, "a1", "Calc", "Nope", "Addx"); !errors.Is(err, contracts.ErrNoOperation) {
		t.Errorf("unknown port: err = %v", err)
	}
	if _, err := c.Operation(ctx, "a1", "Calc", "CalcSoap", "Sub"); !errors.Is(err, contracts.ErrNoOperation) || !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown operation: err = %v", err)
	}
	if _, err := c.Definitions(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing artifact: err = %v, want ErrNotFound", err)
	}
}

func TestCacheSharesByHashAndEvicts(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	insertCalc(t, s, "same1", "s")
	insertCalc(t, s, "same2", "s") // identical files: one parse
	c := contracts.NewSize(s, 2)
	d1, err := c.Definitions(ctx, "same1")
	if err != nil {
		t.Fatal(err)
	}
	d2, err := c.Definitions(ctx, "same2")
	if err != nil {
		t.Fatal(err)
	}
	if d1 != d2 || c.Len() != 1 {
		t.Fatalf("same content parsed twice (len %d)", c.Len())
	}
	for _, tag := range []string{"b", "c", "d"} {
		insertCalc(t, s, "id-"+tag, tag)
		if _, err := c.Definitions(ctx, "id-"+tag); err != nil {
			t.Fatal(err)
		}
	}
	if c.Len() != 2 {
		t.Errorf("len = %d, want 2 (bounded)", c.Len())
	}
	again, err := c.Definitions(ctx, "same1")
	if err != nil {
		t.Fatal(err)
	}
	if again == d1 {
		t.Error("evicted contract was not reloaded")
	}
}

func TestCachePrime(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	a := insertCalc(t, s, "p1", "p")
	defs, err := contracts.Parse(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	c := contracts.New(s)
	c.Prime(a, defs)
	got, err := c.Definitions(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	if got != defs {
		t.Error("primed contract not used")
	}
}

func TestFilesLoaderServesRecordedURLs(t *testing.T) {
	ctx := context.Background()
	files := contracts.Files{
		"http://example.com/svc/calc.wsdl":      calcWSDL("u"),
		"http://example.com/svc/types/calc.xsd": []byte(calcXSD),
	}
	defs, err := contracts.Parse(ctx, model.Artifact{RootPath: "http://example.com/svc/calc.wsdl", Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := defs.Operation("", "", "Addu"); !ok {
		t.Error("operation of a recorded URL import not found")
	}
	rec := &contracts.Recorder{Loader: files}
	if _, err := wsdl.Parse(ctx, rec, "http://example.com/svc/calc.wsdl", xmlstream.Limits{}); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Files()); n != 2 {
		t.Errorf("recorded %d files, want 2", n)
	}
}
