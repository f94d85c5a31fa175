package bundle

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/admin/onboarding"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// preparedVersion is a bundle version that parsed: the import of its
// WSDL files and the draft its operations and mappings make.
type preparedVersion struct {
	artifact model.Artifact
	defs     *wsdl.Definitions
	plan     drafts.Plan // ArtifactID is set when the version is written
}

// prepareVersion imports the WSDL files of v (as an import of pasted XML
// would) and drafts its operations: each operation of the bundle takes
// its SOAP binding details from the WSDL port and its REST route,
// timeout, retries, execution mode, rules and mapping from the bundle.
func prepareVersion(ctx context.Context, base string, v *Version, now time.Time) (*preparedVersion, error) {
	if v.WSDL == nil || len(v.WSDL.Files) == 0 {
		return nil, PointerError(base+"/wsdl", "is required: a version is made from its WSDL files")
	}
	if _, ok := v.WSDL.Files[v.WSDL.RootPath]; !ok {
		return nil, PointerError(base+"/wsdl/rootPath", "names no file of wsdl.files")
	}
	files := make(map[string][]byte, len(v.WSDL.Files))
	for p, text := range v.WSDL.Files {
		files[p] = []byte(text)
	}
	a, defs, err := onboarding.ArtifactFromFiles(ctx, v.WSDL.RootPath, files, "", now)
	if err != nil {
		return nil, wsdlError(base+"/wsdl", err)
	}
	svcName, port, err := catalog.SelectPort(defs, v.WSDLService, v.WSDLPort)
	if err != nil {
		return nil, PointerError(base+"/wsdlPort", err.Error())
	}
	drafted, err := catalog.DraftOperations(defs, svcName, port.Name)
	if err != nil {
		return nil, PointerError(base+"/wsdlPort", err.Error())
	}
	plan := drafts.Plan{WSDLService: svcName, WSDLPort: port.Name}
	keys, routes := map[string]bool{}, map[string]string{}
	for j, o := range v.Operations {
		ob := ptr(base+"/operations", j)
		op, err := operationOf(ob, o, drafted)
		if err != nil {
			return nil, err
		}
		// The defaults, so that the bundle's operation compares equal
		// with the stored one that took them.
		v.Operations[j].ExecutionMode, v.Operations[j].ResponseValidation = op.ExecutionMode, op.ResponseValidation
		if keys[op.OperationKey] {
			return nil, PointerError(ob+"/operationKey", "another operation of the version has this key")
		}
		keys[op.OperationKey] = true
		rk := catalog.RouteKey(op.RestMethod, op.RestPath)
		if other, ok := routes[rk]; ok {
			return nil, PointerError(ob+"/restPath", "operation "+other+" already serves the REST route "+rk)
		}
		routes[rk] = op.OperationKey
		m, err := mappingOf(ob, o.Mapping)
		if err != nil {
			return nil, err
		}
		if err := checkContract(ob, catalog.Contract(defs, svcName, port.Name, op), op, m); err != nil {
			return nil, err
		}
		plan.Ops, plan.Maps = append(plan.Ops, op), append(plan.Maps, m)
	}
	return &preparedVersion{artifact: a, defs: defs, plan: plan}, nil
}

// wsdlError points an import error at the file it names.
func wsdlError(base string, err error) error {
	e, ok := apierr.As(err)
	if !ok || e.Code != apierr.ValBadRequest {
		return err
	}
	reason, _ := e.Details["reason"].(string)
	if reason == "" {
		reason = e.Message
	}
	if file, _ := e.Details["file"].(string); file != "" {
		return PointerError(ptr(base+"/files", file), "the WSDL does not import: "+reason)
	}
	return PointerError(base, "the WSDL does not import: "+reason)
}

// operationOf is the operation o of the bundle on its drafted form (the
// operation of the WSDL port with o's SOAP operation name).
func operationOf(ob string, o Operation, drafted []model.Operation) (model.Operation, error) {
	if !drafts.KeyPattern.MatchString(o.OperationKey) {
		return model.Operation{}, PointerError(ob+"/operationKey", "must be 1 to 63 lower-case letters, digits and dashes")
	}
	i := slices.IndexFunc(drafted, func(d model.Operation) bool {
		return d.SOAPOperationName == o.SOAPOperationName && (o.SOAPVersion == "" || o.SOAPVersion == d.SOAPVersion)
	})
	if i < 0 {
		return model.Operation{}, PointerError(ob+"/soapOperationName", "names no operation of the WSDL port")
	}
	if !slices.Contains(catalog.RestMethods, o.RestMethod) {
		return model.Operation{}, PointerError(ob+"/restMethod", "must be one of "+strings.Join(catalog.RestMethods, ", "))
	}
	if probs := catalog.CheckRestPath(o.RestPath, nil); len(probs) > 0 {
		return model.Operation{}, PointerError(ob+"/restPath", probs[0])
	}
	mode := o.ExecutionMode
	if mode == "" {
		mode = model.ExecutionSync
	}
	if mode != model.ExecutionSync && mode != model.ExecutionAsyncCallback {
		return model.Operation{}, PointerError(ob+"/executionMode", "must be sync or async_callback")
	}
	validation := o.ResponseValidation
	if validation == "" {
		validation = model.ValidationStrict
	}
	if !slices.Contains(model.ValidationModes, validation) {
		return model.Operation{}, PointerError(ob+"/responseValidation", "must be strict, detect or off")
	}
	if err := checkRanges(ob, intRange{"timeoutMs", o.TimeoutMs, 1, 600000}, intRange{"retryCount", o.RetryCount, 0, 10}); err != nil {
		return model.Operation{}, err
	}
	op := drafted[i]
	op.OperationKey, op.RestMethod, op.RestPath, op.ExecutionMode = o.OperationKey, o.RestMethod, o.RestPath, mode
	op.TimeoutMs, op.RetryCount, op.ResponseValidation = o.TimeoutMs, o.RetryCount, validation
	op.ValidationRules, op.TransformRules = o.ValidationRules, o.TransformRules
	return op, nil
}

// mappingOf is the mapping of a bundle operation; none gives the zero
// mapping, which the draft replaces with the auto mapping.
func mappingOf(ob string, m *Mapping) (model.Mapping, error) {
	if m == nil {
		return model.Mapping{}, nil
	}
	src := m.Source
	if src == "" {
		src = model.MappingManual
	}
	if src != model.MappingAuto && src != model.MappingManual {
		return model.Mapping{}, PointerError(ob+"/mapping/source", "must be auto or manual")
	}
	return model.Mapping{Source: src, RequestMapping: m.RequestMapping, ResponseMapping: m.ResponseMapping,
		FaultMapping: m.FaultMapping}, nil
}

// checkContract checks an operation's mapping (when the bundle gives one),
// validation rules and transform rules against its contract, as the
// mapping and rule handlers do.
func checkContract(ob string, c *xsd.Operation, op model.Operation, m model.Mapping) error {
	if m.Source != "" {
		if probs := catalog.CheckMapping(c, m); len(probs) > 0 {
			return PointerError(ob+"/mapping/"+probs[0].Section, problemText(probs[0].Field, probs[0].Reason))
		}
	}
	if len(op.ValidationRules) > 0 {
		if probs := catalog.CheckValidationRules(c, op.ValidationRules); len(probs) > 0 {
			return PointerError(ptr(ob+"/validationRules", probs[0].Index), problemText(probs[0].Field, probs[0].Reason))
		}
	}
	if err := catalog.CheckTransformRules(op.TransformRules); err != nil {
		return PointerError(ob+"/transformRules", err.Error())
	}
	return nil
}

// problemText is a checker's reason, prefixed by the field it names.
func problemText(field, reason string) string {
	if field == "" {
		return reason
	}
	return field + ": " + reason
}
