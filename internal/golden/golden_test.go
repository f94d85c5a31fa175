package golden

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRoundTrip(t *testing.T) {
	text := "comment\n-- in --\n<a/>\n-- want --\n{}\n"
	f := Parse(text)
	want := &File{
		Comment:  "comment\n",
		Names:    []string{"in", "want"},
		Sections: map[string]string{"in": "<a/>\n", "want": "{}\n"},
	}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
	if got := f.String(); got != text {
		t.Errorf("String() = %q, want %q", got, text)
	}
}

func TestSectionMarkers(t *testing.T) {
	// "-- x --" needs a name: "-- --" is text, not a marker.
	f := Parse("-- --\n-- a --\nx\n")
	if f.Comment != "-- --\n" || f.Sections["a"] != "x\n" {
		t.Errorf("got %+v", f)
	}
}
