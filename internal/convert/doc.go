// Package convert converts between JSON and the XML of SOAP bodies.
//
// A Plan is compiled once per xsd.Message and then converts in both
// directions without walking the schema again: JSON→XML writes elements in
// schema order whatever the JSON member order, types simple values from the
// XSD and declares each namespace once; XML→JSON streams the XML straight
// into JSON, typing numbers and booleans and keeping arrays arrays. The
// Naive functions do the same without a contract, by a generic mapping.
//
// The JSON conventions are documented in docs/conversion.md.
package convert
