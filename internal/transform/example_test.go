package transform_test

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/transform"
)

func ExampleProgram_Apply() {
	prog, err := transform.Compile([]transform.Rule{
		{Kind: transform.KindTrim, Field: "/customer/name"},
		{Kind: transform.KindDateFormat, Field: "/items/*/date", Params: map[string]any{"from": "dd.MM.yyyy", "to": "yyyy-MM-dd"}},
		{Kind: transform.KindDefaultValue, Field: "/channel", Params: map[string]any{"value": "web"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := prog.Apply([]byte(`{"customer":{"name":" Ada "},"items":[{"date":"24.12.2024","price":19.990}]}`))
	fmt.Println(string(out), err)
	// Output: {"customer":{"name":"Ada"},"items":[{"date":"2024-12-24","price":19.990}],"channel":"web"} <nil>
}

func ExampleCompile_error() {
	_, err := transform.Compile([]transform.Rule{
		{Kind: transform.KindSplit, Field: "/tags", Params: map[string]any{"seperator": ","}},
	})
	fmt.Println(err)
	// Output: transform rule 0 (split on "/tags"): unknown parameter "seperator"; allowed: separator, limit
}
