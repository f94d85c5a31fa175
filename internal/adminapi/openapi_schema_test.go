package adminapi

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
)

// TestComponentNamesDoNotCollide: a later type with a taken name is
// qualified with its package's name (here adminapi, the test's package).
func TestComponentNamesDoNotCollide(t *testing.T) {
	type Settings struct{ A int } // same name as the built-in Settings component
	type RoleBinding struct{ B int }
	g := newSchemaGen()
	first := g.structRef(reflect.TypeFor[model.RoleBinding]()).Ref
	second := g.structRef(reflect.TypeFor[RoleBinding]()).Ref
	again := g.structRef(reflect.TypeFor[model.RoleBinding]()).Ref
	local := g.structRef(reflect.TypeFor[Settings]()).Ref
	got := []string{first, second, again, local}
	want := []string{"#/components/schemas/RoleBinding", "#/components/schemas/AdminapiRoleBinding",
		"#/components/schemas/RoleBinding", "#/components/schemas/AdminapiSettings"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("component refs (-want +got):\n%s", diff)
	}
}
