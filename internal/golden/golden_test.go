package golden

import (
	"os"
	"path/filepath"
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

// TestRunAndSeeds: Run gives each file's subtest its parsed file; Seeds
// takes a section's text from every file that has it, in file order.
func TestRunAndSeeds(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.txt": "-- in --\none\n-- want --\nx\n",
		"b.txt": "-- want --\ny\n",
		"c.txt": "-- in --\nthree\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := Seeds(t, filepath.Join(dir, "*.txt"), "in"), []string{"one", "three\n"}; !cmp.Equal(got, want) {
		t.Errorf("Seeds = %q, want %q", got, want)
	}
	var ran []string
	Run(t, filepath.Join(dir, "*.txt"), func(t *testing.T, path string, f *File) {
		ran = append(ran, filepath.Base(path)+":"+f.Sections["want"])
	})
	if want := []string{"a.txt:x\n", "b.txt:y\n", "c.txt:"}; !cmp.Equal(ran, want) {
		t.Errorf("Run ran %q, want %q", ran, want)
	}
}
