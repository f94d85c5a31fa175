package convert

import (
	"strings"

	"fmt"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestErrorDetails(t *testing.T) {
	tests := []struct {
		err  *Error
		want map[string]any
		text string
	}{
		{&Error{Pointer: "/items/2/price", Reason: "expected a number"}, map[string]any{"pointer": "/items/2/price", "reason": "expected a number"}, "convert: /items/2/price: expected a number"},
		{&Error{Path: "/Envelope/Body/GetX/item[3]/name", Reason: "unknown element name"}, map[string]any{"path": "/Envelope/Body/GetX/item[3]/name", "reason": "unknown element name"}, "convert: /Envelope/Body/GetX/item[3]/name: unknown element name"},
		{&Error{Reason: "expected a JSON object"}, map[string]any{"pointer": "/", "reason": "expected a JSON object"}, "convert: /: expected a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.err.Details()); diff != "" {
				t.Errorf("Details (-want +got):\n%s", diff)
			}
			if tt.err.Error() != tt.text {
				t.Errorf("Error() = %q, want %q", tt.err.Error(), tt.text)
			}
			wrapped := fmt.Errorf("publish: %w", tt.err)
			if e, ok := AsError(wrapped); !ok || e != tt.err {
				t.Errorf("AsError(%v) = %v, %v", wrapped, e, ok)
			}
		})
	}
}

func TestPointerEscaping(t *testing.T) {
	if got := pointerOf([]pathSeg{{name: "a/b"}, {index: 2}, {name: "c~d"}}); got != "/a~1b/2/c~0d" {
		t.Errorf("pointerOf = %q", got)
	}
}

func TestMaxOutput(t *testing.T) {
	p := benchPlan(t)
	limited := benchPlanOpts(t, Options{MaxOutput: 2000})
	c := &goldenCase{plan: limited}
	body := string(benchBody(20 << 10))
	body = body[len(testBodyStart) : len(body)-len("</soapenv:Body>")]
	if _, err := c.bodyJSON(body, nil); err == nil || !strings.Contains(err.Error(), "exceeds 2000 bytes") {
		t.Errorf("XML→JSON over MaxOutput: %v", err)
	}
	full, err := (&goldenCase{plan: p}).bodyJSON(body, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := xmlstream.NewWriter(nil)
	if err := limited.JSONToXML(w, full); err == nil || !strings.Contains(err.Error(), "exceeds 2000 bytes") {
		t.Errorf("JSON→XML over MaxOutput: %v", err)
	}
}
