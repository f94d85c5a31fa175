package wssec

import (
	"os"
	"os/exec"
	"testing"
)

// strictTools reports whether a missing third-party tool must fail the
// test instead of skipping it (CI, or make test with S2R_REQUIRE_POSTGRES).
func strictTools() bool {
	return os.Getenv("CI") != "" || os.Getenv("S2R_REQUIRE_POSTGRES") != ""
}

// needPython skips (or, under CI, fails) unless /usr/bin/python3 can
// import every module listed.
func needPython(t *testing.T, modules ...string) {
	t.Helper()
	for _, m := range modules {
		if err := exec.Command("/usr/bin/python3", "-c", "import "+m).Run(); err != nil {
			msg := "python3 module " + m + " is not installed (scripts/interop-deps.sh installs it)"
			if strictTools() {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// runPython runs a python3 script with stdin and returns its stdout.
func runPython(t *testing.T, script string, stdin []byte) ([]byte, error) {
	t.Helper()
	return runPythonWith(t, script, stdin)
}

// runPythonWith runs a python3 script with stdin and arguments.
func runPythonWith(t *testing.T, script string, stdin []byte, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", append([]string{"-c", script}, args...)...)
	cmd.Stdin = bytesReader(stdin)
	var stderr stringsBuilder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("python3 stderr: %s", stderr.String())
	}
	return out, err
}
