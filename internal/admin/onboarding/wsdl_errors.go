package onboarding

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/zipset"
)

// importDetailError is the 400 of a contract that cannot be imported:
// S2R-VAL-0400 with details {file, line, reason} (line omitted when
// unknown). URLs in file are redacted.
func importDetailError(file string, line int, reason string) *apierr.Error {
	file = redactLocation(file)
	reason = urlInText.ReplaceAllStringFunc(reason, redactLocation)
	msg := reason
	if file != "" {
		where := file
		if line > 0 {
			where += ":" + strconv.Itoa(line)
		}
		msg = where + ": " + reason
	}
	e := apierr.New(apierr.ValBadRequest, "WSDL import failed: "+msg).WithDetail("reason", reason)
	if file != "" {
		e = e.WithDetail("file", file)
	}
	if line > 0 {
		e = e.WithDetail("line", line)
	}
	return e
}

// importError maps a parse failure to its 400: a *wsdl.ImportError gives
// its file, line and reason, extended with the fetch failure behind it (a
// blocked or unreachable URL) when there is one. Other errors (a canceled
// request, an internal failure) are returned unchanged.
func importError(err error) error {
	var ie *wsdl.ImportError
	if !errors.As(err, &ie) {
		var fe *fetch.Error
		if errors.As(err, &fe) {
			return fetchDetailError("url", err)
		}
		return err
	}
	reason := syntaxReason(ie)
	e := importDetailError(ie.File, ie.Line, reason)
	var fe *fetch.Error
	if errors.As(ie.Err, &fe) {
		reason += ": " + fetchReasonText(fe)
		e = importDetailError(ie.File, ie.Line, reason).WithDetail("fetchReason", string(fe.Reason))
		if fe.URL != "" {
			e = e.WithDetail("url", fe.URL)
		}
	}
	return e
}

// syntaxReason is the reason of an import error, which for XML that is not
// well-formed adds what is wrong at its line ("not well-formed XML: end tag
// </types> does not match start tag <definitions>"), not the line alone.
func syntaxReason(ie *wsdl.ImportError) string {
	var se *xmlstream.SyntaxError
	if errors.As(ie.Err, &se) && se.Msg != "" && !strings.Contains(ie.Reason, se.Msg) {
		return ie.Reason + ": " + se.Msg
	}
	return ie.Reason
}

// fetchReasonText explains a fetch failure; a blocked address says how to
// allow it.
func fetchReasonText(fe *fetch.Error) string {
	if fe.Reason == fetch.ReasonBlockedAddress {
		return fe.Msg + " (loopback, link-local and cloud-metadata addresses are refused unless listed in the setting outbound_allowed_cidrs)"
	}
	return fe.Msg
}

// fetchDetailError is the 400 of a URL that cannot be fetched.
func fetchDetailError(field string, err error) *apierr.Error {
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		return adminapi.FieldError(field, "is not a usable http or https URL")
	}
	e := importDetailError(fe.URL, 0, fetchReasonText(fe)).WithDetail("fetchReason", string(fe.Reason))
	if field != "" {
		e = e.WithDetail("field", field)
	}
	return e
}

// zipError maps a zipset.Read failure of the upload named name: a bad
// entry names the entry as the file; an unreadable archive or a limit
// names the upload.
func zipError(name string, err error) *apierr.Error {
	var ee *zipset.EntryError
	if errors.As(err, &ee) {
		return importDetailError(ee.Entry, 0, ee.Reason).WithDetail("archive", name)
	}
	switch {
	case errors.Is(err, zipset.ErrLimit):
		return importDetailError(name, 0, "ZIP over the limits ("+strconv.Itoa(maxImportFiles)+" files, "+
			importLimitMB(maxImportTotalBytes)+" MB inflated, "+importLimitMB(MaxImportXMLBytes)+" MB per file): "+err.Error())
	case errors.Is(err, zipset.ErrArchive):
		return importDetailError(name, 0, "not a readable ZIP archive")
	}
	return importDetailError(name, 0, err.Error())
}

// urlInText finds http(s) URLs quoted in error reasons. Braces end a URL:
// a reason names qualified names as {namespace}local, and redacting
// "http://ns}local" as a URL would render the brace as %7D.
var urlInText = regexp.MustCompile(`https?://[^\s"'<>{}]+`)

// redactLocation redacts query values of URL locations.
func redactLocation(loc string) string {
	if strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://") {
		if r := fetch.RedactString(loc); r != "" {
			return r
		}
	}
	return loc
}

// importLimitMB renders a byte limit in MB.
func importLimitMB(n int64) string { return strconv.FormatInt(n>>20, 10) }
