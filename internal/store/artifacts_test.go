package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func testArtifact(id string, at time.Time, tns, source string, services ...string) model.Artifact {
	files := map[string][]byte{
		"main.wsdl":      []byte(`<definitions targetNamespace="` + tns + `"><!-- <&> "quoted" --></definitions>`),
		"xsd/types.xsd":  []byte("<schema/>\n"),
		"latin1/old.xsd": {'<', 'a', '>', 0xE9, '<', '/', 'a', '>'}, // not UTF-8: stored as base64
	}
	return model.Artifact{
		ArtifactID: id, CreatedAt: at, CreatedBy: "op@example.com", SourceKind: model.ArtifactZIP,
		SourceName: source, RootPath: "main.wsdl", Files: files, TargetNamespace: tns, ServiceNames: services,
		Summary: model.ArtifactSummary{TargetNamespace: tns, OperationCount: 1, Services: []model.ArtifactService{
			{Name: "S", Ports: []model.ArtifactPort{{Name: "P", Binding: "{urn:x}B", SOAPVersion: "1.1",
				Operations: []model.ArtifactOperation{{Name: "Add", Style: "document", Use: "literal", SOAPVersion: "1.1"}}}}},
		}},
		Warnings: []string{"port Q skipped"},
	}
}

func TestArtifactRoundTrip(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		a := testArtifact("0190a000-0000-7000-8000-000000000001", at, "urn:calc", "calc.zip", "Calc", "Admin")
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertArtifact(ctx, a) }); err != nil {
			t.Fatal(err)
		}
		got, err := s.Artifact(ctx, a.ArtifactID)
		if err != nil {
			t.Fatal(err)
		}
		want := a
		want.ServiceNames = []string{"Admin", "Calc"}
		want.FileCount = 3
		want.SizeBytes = int64(len(a.Files["main.wsdl"]) + len(a.Files["xsd/types.xsd"]) + len(a.Files["latin1/old.xsd"]))
		want.ContentSHA256 = model.ArtifactContentHash(a.RootPath, a.Files)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("artifact (-want +got):\n%s", diff)
		}
		head, err := s.ArtifactHeader(ctx, a.ArtifactID)
		if err != nil {
			t.Fatal(err)
		}
		want.Files = nil
		if diff := cmp.Diff(want, head); diff != "" {
			t.Errorf("header (-want +got):\n%s", diff)
		}
		if _, err := s.Artifact(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing artifact: err = %v, want ErrNotFound", err)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertArtifact(ctx, a) })
		if !errors.Is(err, store.ErrAlreadyExists) {
			t.Errorf("duplicate id: err = %v, want ErrAlreadyExists", err)
		}
	})
}

func TestNewestComparableArtifact(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		arts := []model.Artifact{
			testArtifact("a1", t0, "urn:calc", "calc.wsdl", "Calc"),
			testArtifact("a2", t0.Add(time.Minute), "urn:calc", "other.wsdl", "Calc"),            // same services
			testArtifact("a3", t0.Add(2*time.Minute), "urn:calc", "calc.wsdl", "Calculator"),     // same source
			testArtifact("a4", t0.Add(3*time.Minute), "urn:other", "calc.wsdl", "Calc"),          // other namespace
			testArtifact("a5", t0.Add(4*time.Minute), "urn:calc", "unrelated.wsdl", "Different"), // nothing shared
		}
		err := s.Transact(ctx, func(tx *store.Tx) error {
			for _, a := range arts {
				if err := tx.InsertArtifact(ctx, a); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ id, want string }{
			{"a1", "a3"}, // a2 by service names, a3 by source name; a3 is newer
			{"a2", "a2"}, // a1 shares services but is older; a3 shares neither
			{"a4", "a4"},
			{"a5", "a5"},
		} {
			got, err := s.NewestComparableArtifact(ctx, tc.id)
			if err != nil {
				t.Fatalf("%s: %v", tc.id, err)
			}
			if got.ArtifactID != tc.want {
				t.Errorf("newest comparable with %s = %s, want %s", tc.id, got.ArtifactID, tc.want)
			}
		}
		if _, err := s.NewestComparableArtifact(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing: err = %v, want ErrNotFound", err)
		}
	})
}
