// Package convert converts between JSON and the XML of SOAP bodies.
//
// A Plan is compiled once per xsd.Message and then converts in both
// directions without walking the schema again: JSON→XML writes elements in
// schema order whatever the JSON member order, types simple values from the
// XSD and declares each namespace once; XML→JSON streams the XML straight
// into JSON, typing numbers and booleans and keeping arrays arrays. The
// Naive functions do the same without a contract, by a generic mapping.
//
// Typical use, with the envelope handled by package soap:
//
//	in, err := convert.Compile(op.Input, convert.OptionsFor(op)) // once per route
//	// request: JSON → SOAP
//	soap.Write(w, soap.Envelope{Version: v}, func(w *xmlstream.Writer) error {
//		return in.JSONToXML(w, body)
//	})
//	// response: SOAP → JSON, tokenizing the envelope once
//	m, r, err := soap.ParseHead(resp, limits)
//	if m.FaultAhead(r) {
//		fault, err := m.ReadFault(r) // detail: convert.FragmentJSON
//	}
//	out, err := outPlan.XMLToJSON(dst, r, "/Envelope/Body")
//	err = soap.FinishBody(r)
//
// Errors are *Error values carrying a JSON pointer or an XML path. The JSON
// conventions are documented in docs/conversion.md.
package convert
