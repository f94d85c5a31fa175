// Package web holds the files of the admin console: the application page,
// its stylesheet, its plain ES modules and the libraries vendored from npm
// by scripts/vendor-web.sh. They are embedded in the s2r binary and served
// by internal/console; there is no build step.
package web

import (
	"embed"
	"io/fs"
)

//go:embed console
var files embed.FS

// Console returns the console's files, rooted at the console directory
// (index.html at the top).
func Console() fs.FS {
	sub, err := fs.Sub(files, "console")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}
