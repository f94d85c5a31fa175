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

// TestNewestLineageArtifact: only imports attached to the service count,
// never a newer copy of the same WSDL made for another service or for none.
func TestNewestLineageArtifact(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		arts := []model.Artifact{
			testArtifact("a1", t0, "urn:calc", "calc.wsdl", "Calc"),
			testArtifact("a2", t0.Add(time.Minute), "urn:calc", "calc.wsdl", "Calc"),   // attached to s1
			testArtifact("a3", t0.Add(2*time.Minute), "urn:calc", "calc.wsdl", "Calc"), // a broken copy for s2
			testArtifact("a4", t0.Add(3*time.Minute), "urn:calc", "calc.wsdl", "Calc"), // attached to nothing
		}
		attach := []struct{ service, version, artifact string }{{"s1", "v1", "a1"}, {"s1", "v2", "a2"}, {"s2", "v3", "a3"}}
		err := s.Transact(ctx, func(tx *store.Tx) error {
			for _, a := range arts {
				if err := tx.InsertArtifact(ctx, a); err != nil {
					return err
				}
			}
			for _, id := range []string{"s1", "s2"} {
				if err := tx.CreateService(ctx, testService(id, "calc-"+id)); err != nil {
					return err
				}
			}
			for i, at := range attach {
				artifact := at.artifact
				if err := tx.CreateVersion(ctx, model.Version{VersionID: at.version, ServiceID: at.service, VersionNumber: i + 1,
					Status: model.VersionInactive, ArtifactID: &artifact, CreatedAt: t0, CreatedBy: "me"}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ service, id, want string }{
			{"s1", "a1", "a2"}, // a3 and a4 are newer copies, not s1's
			{"s1", "a2", ""},
			{"s2", "a3", ""},
			{"s2", "a1", "a3"},
			{"s1", "nope", ""},
		} {
			got, err := s.NewestLineageArtifact(ctx, tc.service, tc.id)
			switch {
			case tc.want == "" && !errors.Is(err, store.ErrNotFound):
				t.Errorf("%s after %s: %v, %v; want ErrNotFound", tc.service, tc.id, got.ArtifactID, err)
			case tc.want != "" && (err != nil || got.ArtifactID != tc.want):
				t.Errorf("%s after %s = %s, %v; want %s", tc.service, tc.id, got.ArtifactID, err, tc.want)
			}
		}
	})
}
