package routing

import (
	"encoding/json"
	"testing"
)

func TestRenamer(t *testing.T) {
	r, err := ParseRenamer([]byte(`{"mode":"identity","rename":{"sCountryISOCode":"code","order":"o","order/lines/sku":"id"},"omit":["order/internalRef"]}`))
	if err != nil {
		t.Fatal(err)
	}
	contract := `{"sCountryISOCode":"US","order":{"internalRef":"x","lines":[{"sku":"A","n":1},{"sku":"B","n":2}]},"keep":true}`
	client := `{"code":"US","keep":true,"o":{"lines":[{"id":"A","n":1},{"id":"B","n":2}]}}`

	doc, _ := DecodeJSON([]byte(contract))
	if got := marshal(t, r.FromContract(doc)); got != marshal(t, decode(t, client)) {
		t.Errorf("FromContract = %s, want %s", got, client)
	}
	withRef := `{"code":"US","keep":true,"o":{"internalRef":"dropped","lines":[{"id":"A","n":1},{"id":"B","n":2}]}}`
	want := `{"sCountryISOCode":"US","order":{"lines":[{"sku":"A","n":1},{"sku":"B","n":2}]},"keep":true}`
	if got := marshal(t, r.ToContract(decode(t, withRef))); got != marshal(t, decode(t, want)) {
		t.Errorf("ToContract = %s, want %s", got, want)
	}
	for _, identity := range []string{`null`, `{"mode":"identity"}`, ``} {
		if r, err := ParseRenamer([]byte(identity)); r != nil || err != nil {
			t.Errorf("ParseRenamer(%q) = %v, %v", identity, r, err)
		}
	}
}

func decode(t *testing.T, s string) any {
	v, err := DecodeJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func marshal(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPicker(t *testing.T) {
	p, err := ParsePicker([]byte(`{"mode":"identity","pick":["detail/err/code","detail/items/id"]}`))
	if err != nil || p == nil {
		t.Fatalf("ParsePicker = %v, %v", p, err)
	}
	fault := decode(t, `{"faultCode":"Sender","faultString":"x","detail":{"err":{"code":7,"trace":"secret"},"internal":"secret","items":[{"id":1,"pw":"s"},{"id":2}]}}`).(map[string]any)
	p.Pick(fault)
	want := `{"detail":{"err":{"code":7},"items":[{"id":1},{"id":2}]},"faultCode":"Sender","faultString":"x"}`
	if got := marshal(t, fault); got != want {
		t.Errorf("Pick = %s, want %s", got, want)
	}
	none := decode(t, `{"faultCode":"Sender","detail":{"other":1}}`).(map[string]any)
	p.Pick(none)
	if got := marshal(t, none); got != `{"faultCode":"Sender"}` {
		t.Errorf("Pick without a match = %s", got)
	}
}
