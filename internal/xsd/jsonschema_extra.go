package xsd

// HeadersJSONSchema builds the JSON Schema of the header parts of msg (see
// convert.CompileHeaders): one optional member per header part. It returns
// nil when msg has no header parts.
func HeadersJSONSchema(msg *Message, opts JSONSchemaOptions) *JSONSchemaDoc {
	g := NewJSONSchemaGenerator(opts)
	root := g.Headers(msg)
	if root == nil {
		return nil
	}
	return &JSONSchemaDoc{Root: root, Defs: g.Defs()}
}

// FaultJSONSchema is the schema of the JSON fault shape
// (docs/conversion.md, soap.Fault.AppendJSON); detail is the schema of the
// detail member (the schema of a Fault.DetailMessage, an anyOf of them,
// or nil for any JSON).
func FaultJSONSchema(detail map[string]any) map[string]any {
	str := map[string]any{"type": "string"}
	if detail == nil {
		detail = map[string]any{}
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"faultCode":     str,
			"faultSubcodes": map[string]any{"type": "array", "items": str},
			"faultString":   str,
			"faultLang":     str,
			"faultNode":     str,
			"faultRole":     str,
			"detail":        detail,
		},
		"required":             []string{"faultCode", "faultString"},
		"additionalProperties": false,
	}
}

// SafeFaultJSONSchema is the schema of what faultDetailExposureMode safe
// exposes of a fault: faultCode and faultSubcodes (docs/conversion.md).
func SafeFaultJSONSchema() map[string]any {
	str := map[string]any{"type": "string"}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"faultCode": map[string]any{"type": "string",
				"description": "Sender, Receiver, VersionMismatch, MustUnderstand, DataEncodingUnknown, or the local name of a custom code"},
			"faultSubcodes": map[string]any{"type": "array", "items": str,
				"description": "local names of the SOAP 1.2 Subcode chain or of the dotted parts of a SOAP 1.1 faultcode, outermost first"},
		},
		"required":             []string{"faultCode"},
		"additionalProperties": false,
	}
}
