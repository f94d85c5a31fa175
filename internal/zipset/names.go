package zipset

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// maxNameLength bounds entry names.
const maxNameLength = 1024

// cleanName turns a ZIP entry name into a safe relative forward-slash path,
// or explains why it cannot be one. Backslashes are read as separators
// (some Windows tools write them); "." and empty segments are dropped; ".."
// segments, absolute paths, drive letters, UNC paths, NUL and other control
// characters are refused. Directory entries keep no trailing slash.
func cleanName(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("empty name")
	}
	if len(name) > maxNameLength {
		return "", fmt.Errorf("name longer than %d bytes", maxNameLength)
	}
	if !utf8.ValidString(name) {
		return "", fmt.Errorf("name is not valid UTF-8")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("name contains a control character")
		}
	}
	slashed := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(slashed, "/") {
		return "", fmt.Errorf("absolute path")
	}
	if hasDriveLetter(slashed) {
		return "", fmt.Errorf("absolute Windows path")
	}
	var kept []string
	for seg := range strings.SplitSeq(slashed, "/") {
		switch seg {
		case "", ".":
			continue
		case "..":
			return "", fmt.Errorf("path escapes the archive with \"..\"")
		}
		if strings.Contains(seg, ":") {
			return "", fmt.Errorf("name contains \":\"")
		}
		kept = append(kept, seg)
	}
	if len(kept) == 0 {
		return "", errNoFilePart
	}
	return strings.Join(kept, "/"), nil
}

// errNoFilePart is the error of names made only of separators and dots.
var errNoFilePart = errors.New("name has no file part")

// isMacMetadata reports the junk macOS Finder adds to archives: the
// __MACOSX folder, AppleDouble "._" files and .DS_Store.
func isMacMetadata(clean string) bool {
	if clean == "__MACOSX" || strings.HasPrefix(clean, "__MACOSX/") {
		return true
	}
	base := path.Base(clean)
	return strings.HasPrefix(base, "._") || base == ".DS_Store"
}

// hasDriveLetter reports a leading "C:" style drive.
func hasDriveLetter(s string) bool {
	if len(s) < 2 || s[1] != ':' {
		return false
	}
	c := s[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
