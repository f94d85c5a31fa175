package dataplane

import (
	"testing"

	"github.com/s2r-project/s2r/internal/routing"
)

func TestCallbackID(t *testing.T) {
	for _, tc := range []struct {
		info CallbackInfo
		want string
	}{
		{CallbackInfo{RelatesTo: "urn:uuid:abc"}, "abc"},
		{CallbackInfo{RelatesTo: "URN:UUID:abc", MessageID: "other"}, "abc"},
		{CallbackInfo{MessageID: "order-1"}, "order-1"},
		{CallbackInfo{MessageID: "urn:uuid:"}, ""},
		{CallbackInfo{}, ""},
		{CallbackInfo{RelatesTo: "urn:uuid"}, "urn:uuid"},
	} {
		if got := tc.info.ID(); got != tc.want {
			t.Errorf("%+v: ID = %q, want %q", tc.info, got, tc.want)
		}
	}
}

func TestAsyncIDUsable(t *testing.T) {
	for id, want := range map[string]bool{
		"01a211b9-d4e2-7c6f-a915-65bdb557f311": true, "order.42_x~y:z": true, "": false, "a/b": false, "a b": false,
		"a%2F": false, "é": false, string(make([]byte, 129)): false,
	} {
		if got := asyncIDUsable(id); got != want {
			t.Errorf("asyncIDUsable(%q) = %v", id, got)
		}
	}
}

// TestPollTarget: GET …/{op}/async/{id} is a poll unless a GET operation
// of the service claims the path.
func TestPollTarget(t *testing.T) {
	svc, err := routing.Compile(calcSource(t, "http://127.0.0.1:1/calc"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rest, op, id string
		ok           bool
	}{
		{"/add/async/x1", "add", "x1", true},
		{"/dev/calc/add/async/x1", "add", "x1", true}, // duplicated prefix
		{"/add/async/", "", "", false},
		{"/add/async/x/y", "", "", false},
		{"/add/sync/x", "", "", false},
		{"/codes/async", "", "", false},
	} {
		op, id, ok := pollTarget(svc, Target{Direction: Publish, Environment: "dev", ServiceKey: "calc", Rest: tc.rest})
		if op != tc.op || id != tc.id || ok != tc.ok {
			t.Errorf("%s: %q %q %v", tc.rest, op, id, ok)
		}
	}
	src := calcSource(t, "http://127.0.0.1:1/calc")
	src.Operations[1].RestPath = "/{code}/async/{limit}" // a GET operation owns the shape
	svc, err = routing.Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := pollTarget(svc, Target{Direction: Publish, Environment: "dev", ServiceKey: "calc", Rest: "/add/async/x"}); ok {
		t.Error("a GET operation's path was taken for a poll")
	}
}
