// Package transform applies an operation's request transform rules (SPEC
// 2.3: trim, uppercase, lowercase, default_value, rename, split, join,
// date_format) to a JSON document before it is converted to SOAP.
//
// Rules are validated and compiled once, when they are saved (Compile);
// the compiled Program is immutable and safe for concurrent use on the
// request path (Apply). Fields are JSON Pointers (RFC 6901) in which the
// segment "*" stands for every element of an array, e.g. /items/*/sku.
//
// Apply keeps the document's member order and the exact text of every
// number: values no rule changed or looked inside are copied byte for byte
// (their insignificant white space included), and the objects and arrays
// a rule opened are written compactly. Rules run in order, each on the result
// of the one before. A rule whose field is absent (or null, except for
// default_value) does nothing; a rule that meets a value of the wrong type
// fails with an error naming the rule and the concrete field.
//
// # Fields
//
// A field is a JSON Pointer: "/order/id" names member "id" of member
// "order"; "~1" stands for "/" and "~0" for "~" inside a name; a decimal
// segment ("/items/0") indexes an array (and names a member on an object).
// The segment "*" matches every element of an array and nothing on other
// values, so a member literally called "*" cannot be addressed. The root
// itself ("" or "/") is not a valid field.
//
// # Date patterns
//
// date_format patterns use a subset of the Java DateTimeFormatter letters, which
// is what SOAP and integration people already write:
//
//	yyyy  4-digit year          yy   2-digit year (00-68 → 20xx, 69-99 → 19xx)
//	MM    month 01-12           M    month 1-12
//	MMM   Jan, Feb, …           MMMM January, February, …
//	dd    day 01-31             d    day 1-31
//	HH    hour 00-23            H    hour 0-23
//	hh    hour 01-12            h    hour 1-12 (both need "a")
//	mm    minute 00-59          m    minute 0-59
//	ss    second 00-59          s    second 0-59
//	S…S   fraction of a second, as many digits as letters (1-9)
//	a     AM or PM
//	EEE   Mon, Tue, …           EEEE Monday, Tuesday, … (checked when parsing)
//	X     Z or ±hh              XX   Z or ±hhmm         XXX  Z or ±hh:mm
//	Z     ±hhmm (+0000 for UTC)
//	'…'   literal text; '' is a single quote
//
// Any other ASCII letter is an error (so a forgotten quote around "T" is
// caught when the rule is saved); other characters are literal. Names are
// English and matched without regard to case when parsing. A one-letter
// numeric field (M, d, H, h, m, s) may not be followed directly by another
// numeric field, because the boundary between them would be ambiguous.
// Fields missing from the "from" pattern take their values from
// 1970-01-01T00:00:00; without an offset the time is read as UTC.
package transform
