package transform

import "testing"

func TestValueEnd(t *testing.T) {
	tests := []struct {
		in   string
		want int // length of the first value
	}{
		{`"abc",1`, 5},
		{`"a\"b",1`, 6},
		{`"a\\",1`, 5},
		{`"a\\\"",1`, 7},
		{`"\\\\"]`, 6},
		{`""}`, 2},
		{`12.5e3,`, 6},
		{`-0 ,`, 2},
		{`true}`, 4},
		{`null`, 4},
		{`{"a":"}","b":[1,"]"]} ,`, 21},
		{`[[],{},"[\"]"] `, 14},
	}
	for _, tt := range tests {
		if got := valueEnd([]byte(tt.in), 0); got != tt.want {
			t.Errorf("valueEnd(%s) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
