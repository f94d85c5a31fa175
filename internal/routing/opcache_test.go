package routing

import (
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

func TestOpCache(t *testing.T) {
	c := NewOpCache()
	src := Source{
		Service:        model.Service{ServiceID: "s", ServiceKey: "k", Environment: "dev", Direction: "publish"},
		Version:        model.Version{VersionID: "v"},
		Operations:     []model.Operation{{OperationID: "o1", OperationKey: "a"}, {OperationID: "o2", OperationKey: "b"}},
		DefaultTimeout: time.Second,
		Ops:            c,
	}
	first, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.Rotate(); n != 0 {
		t.Errorf("first load reused %d", n)
	}
	src.Operations[1].RestPath = "/changed"
	second, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	if second.Operation("a") != first.Operation("a") {
		t.Error("unchanged operation compiled again")
	}
	if second.Operation("b") == first.Operation("b") || second.Operation("b").RESTPath != "/changed" {
		t.Error("changed operation reused")
	}
	if n := c.Rotate(); n != 1 {
		t.Errorf("second load reused %d, want 1", n)
	}
	// A changed default invalidates every entry.
	src.DefaultTimeout = 2 * time.Second
	third, _ := Compile(src)
	if third.Operation("a") == second.Operation("a") || third.Operation("a").Timeout != 2*time.Second {
		t.Error("operation reused across a settings change")
	}
}
