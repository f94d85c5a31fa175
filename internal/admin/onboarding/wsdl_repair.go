package onboarding

import (
	"context"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// repairBody is the JSON body of the repair endpoints: the root WSDL, its
// further files, and whether remote references may be fetched (through
// the guarded fetcher) to check or package them. The endpoints also take
// multipart/form-data with field file (a WSDL or a ZIP) and the text
// fields checkRemote and rootPath.
type repairBody struct {
	XML         string            `json:"xml"`
	Files       map[string]string `json:"files,omitempty"`
	CheckRemote bool              `json:"checkRemote,omitempty"`
}

// repairInput is a parsed repair request.
type repairInput struct {
	src         *importSource
	checkRemote bool
}

// readRepairInput reads a repair request as JSON or multipart.
func readRepairInput(w http.ResponseWriter, r *http.Request) (*repairInput, error) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		form, err := readUploadForm(w, r, []string{"checkRemote", "rootPath"}, 1)
		if err != nil {
			return nil, err
		}
		check, err := formBool(form.fields, "checkRemote")
		if err != nil {
			return nil, err
		}
		src, err := sourceFromUpload(form.files[0].name, form.files[0].data, form.fields["rootPath"])
		if err != nil {
			return nil, err
		}
		return &repairInput{src: src, checkRemote: check}, nil
	}
	var body repairBody
	if err := decodeImportJSON(w, r, &body); err != nil {
		return nil, err
	}
	src, err := sourceFromXML(body.XML, body.Files)
	if err != nil {
		return nil, err
	}
	return &repairInput{src: src, checkRemote: body.CheckRemote}, nil
}

// formBool reads an optional true/false form field.
func formBool(fields map[string]string, name string) (bool, error) {
	switch fields[name] {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, adminapi.FieldError(name, "must be true or false")
}

// namespaceRepair is one undeclared prefix and the declaration proposed.
type namespaceRepair struct {
	File              string `json:"file"`
	Line              int    `json:"line"`
	Prefix            string `json:"prefix"`
	ProposedNamespace string `json:"proposedNamespace"`
	Source            string `json:"source"`
	// Declaration is the attribute added on the file's root element; empty
	// when no namespace can be proposed (the prefix must be fixed by hand).
	Declaration string `json:"declaration"`
}

// NamespaceRepairPreview answers POST /wsdl/namespace-repair-preview.
type NamespaceRepairPreview struct {
	Repairs []namespaceRepair      `json:"repairs"`
	Summary namespaceRepairSummary `json:"summary"`
}

// namespaceRepairSummary counts the undeclared prefixes, the files they
// are in, and those without a proposed namespace.
type namespaceRepairSummary struct {
	UndeclaredPrefixes int `json:"undeclaredPrefixes"`
	FilesAffected      int `json:"filesAffected"`
	Unresolved         int `json:"unresolved"`
}

// previewNamespaces runs the namespace repair over files.
func previewNamespaces(files map[string][]byte) (NamespaceRepairPreview, map[string][]byte, error) {
	report, repaired, err := wsdl.RepairNamespaces(files)
	if err != nil {
		return NamespaceRepairPreview{}, nil, importError(err)
	}
	out := NamespaceRepairPreview{Repairs: []namespaceRepair{}}
	affected := map[string]bool{}
	for _, rp := range report.Repairs {
		nr := namespaceRepair{File: rp.File, Line: rp.Line, Prefix: rp.Prefix, ProposedNamespace: rp.URI, Source: rp.Source}
		if rp.URI != "" {
			nr.Declaration = `xmlns:` + rp.Prefix + `="` + rp.URI + `"`
		} else {
			out.Summary.Unresolved++
		}
		affected[rp.File] = true
		out.Repairs = append(out.Repairs, nr)
	}
	out.Summary.UndeclaredPrefixes = len(out.Repairs)
	out.Summary.FilesAffected = len(affected)
	return out, repaired, nil
}

// postNamespaceRepairPreview lists undeclared prefixes and the proposed
// declarations, without storing anything.
func (s *Handlers) postNamespaceRepairPreview(w http.ResponseWriter, r *http.Request) error {
	in, err := readRepairInput(w, r)
	if err != nil {
		return err
	}
	preview, _, err := previewNamespaces(in.src.files)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, preview)
}

// Reference health statuses of the external-reference preview.
const (
	RefResolved        = "resolved"           // found in the submitted files
	RefBuiltin         = "builtin"            // a well-known schema s2r carries
	RefRemoteReachable = "remote_reachable"   // fetched (checkRemote)
	RefRemoteFailed    = "remote_unreachable" // fetch failed (checkRemote)
	RefRemoteUnchecked = "remote_not_checked" // remote, checkRemote not set
	RefMissing         = "missing"            // a relative location not in the files
	refNamespaceOnly   = "namespace_only"     // xs:import without schemaLocation
)

// referenceView is one wsdl:import, xs:import or xs:include and its health.
type referenceView struct {
	From      string `json:"from"`
	Line      int    `json:"line"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Location  string `json:"location,omitempty"`
	Resolved  string `json:"resolved,omitempty"`
	Status    string `json:"status"`
	Error     string `json:"error,omitempty"`
}

// ReferenceReport answers POST /wsdl/external-reference-preview.
type ReferenceReport struct {
	References []referenceView `json:"references"`
	Summary    map[string]int  `json:"summary"`
}

// references walks every reference of the input and rates its health.
// remote, when not nil, serves http(s) locations.
func references(ctx context.Context, in *repairInput, files map[string][]byte, remote xsd.Loader) (ReferenceReport, error) {
	loader := xsd.Loaders{xsd.FileSet(files)}
	if remote != nil {
		loader = append(loader, remote)
	}
	refs, err := wsdl.References(ctx, loader, in.src.root)
	if err != nil {
		return ReferenceReport{}, importError(err)
	}
	out := ReferenceReport{References: []referenceView{}, Summary: map[string]int{"total": len(refs)}}
	for _, st := range []string{RefResolved, RefBuiltin, RefRemoteReachable, RefRemoteFailed, RefRemoteUnchecked, RefMissing, refNamespaceOnly} {
		out.Summary[st] = 0
	}
	for _, ref := range refs {
		v := referenceView{From: redactLocation(ref.From), Line: ref.Line, Kind: ref.Kind, Namespace: ref.Namespace,
			Location: redactLocation(ref.Location), Resolved: redactLocation(ref.Resolved), Status: referenceStatus(ref, remote != nil)}
		if ref.Error != "" {
			v.Error = strings.ReplaceAll(ref.Error, ref.Resolved, v.Resolved)
		}
		out.Summary[v.Status]++
		out.References = append(out.References, v)
	}
	return out, nil
}

// referenceStatus rates one reference.
func referenceStatus(ref wsdl.Reference, checked bool) string {
	remote := isRemote(ref.Resolved)
	switch {
	case ref.Builtin:
		return RefBuiltin
	case ref.Error != "" && remote && checked:
		return RefRemoteFailed
	case ref.Error != "" && remote:
		return RefRemoteUnchecked
	case ref.Error != "":
		return RefMissing
	case ref.Location == "":
		return refNamespaceOnly
	case remote:
		return RefRemoteReachable
	}
	return RefResolved
}

func isRemote(loc string) bool {
	return strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://")
}

// remoteLoader returns the guarded URL loader when checkRemote is set.
func (s *Handlers) remoteLoader(ctx context.Context, checkRemote bool) (xsd.Loader, error) {
	if !checkRemote {
		return nil, nil
	}
	f, err := adminapi.GuardedFetcher(ctx, s.store)
	if err != nil {
		return nil, err
	}
	return xsd.URLLoader{Fetch: func(ctx context.Context, u string) ([]byte, error) {
		res, err := f.Get(ctx, u)
		if err != nil {
			return nil, err
		}
		return res.Body, nil
	}}, nil
}

// postExternalReferencePreview lists every reference with its health.
func (s *Handlers) postExternalReferencePreview(w http.ResponseWriter, r *http.Request) error {
	in, err := readRepairInput(w, r)
	if err != nil {
		return err
	}
	remote, err := s.remoteLoader(r.Context(), in.checkRemote)
	if err != nil {
		return err
	}
	report, err := references(r.Context(), in, in.src.files, remote)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, report)
}

// Repair report statuses.
const (
	RepairImportable    = "IMPORTABLE"
	repairAfterRepair   = "IMPORTABLE_AFTER_REPAIR"
	repairNotImportable = "NOT_IMPORTABLE"
)

// importProblem is an import error as file, line and reason.
type importProblem struct {
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// RepairReport answers POST /wsdl/repair-report.
type RepairReport struct {
	Status                 string                 `json:"status"`
	RootPath               string                 `json:"rootPath"`
	NamespaceRepairs       NamespaceRepairPreview `json:"namespaceRepairs"`
	References             ReferenceReport        `json:"references"`
	ImportError            *importProblem         `json:"importError"`
	ImportErrorAfterRepair *importProblem         `json:"importErrorAfterRepair"`
	Warnings               []string               `json:"warnings"`
	OperationCount         int                    `json:"operationCount"`
	SuggestedActions       []string               `json:"suggestedActions"`
}

// postRepairReport combines the namespace repairs, the reference health,
// the import result before and after repair, and the import warnings.
func (s *Handlers) postRepairReport(w http.ResponseWriter, r *http.Request) error {
	in, err := readRepairInput(w, r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	remote, err := s.remoteLoader(ctx, in.checkRemote)
	if err != nil {
		return err
	}
	rep := RepairReport{RootPath: in.src.root, Warnings: []string{}, SuggestedActions: []string{}}
	var repaired map[string][]byte
	if rep.NamespaceRepairs, repaired, err = previewNamespaces(in.src.files); err != nil {
		return err
	}
	if rep.References, err = references(ctx, in, in.src.files, remote); err != nil {
		return err
	}
	defs, problem := tryImport(ctx, in.src.files, in.src.root, remote)
	rep.Status, rep.ImportError = RepairImportable, problem
	if problem != nil {
		defs, rep.ImportErrorAfterRepair = tryImport(ctx, repaired, in.src.root, remote)
		rep.Status = repairAfterRepair
		if rep.ImportErrorAfterRepair != nil {
			rep.Status = repairNotImportable
		}
	}
	if defs != nil {
		rep.Warnings = append(rep.Warnings, defs.Warnings...)
		rep.OperationCount = len(defs.Operations())
	}
	rep.SuggestedActions = repairActions(rep)
	return adminapi.WriteJSON(w, http.StatusOK, rep)
}

// tryImport parses files as an import would; a failure is returned as a
// problem, not an error.
func tryImport(ctx context.Context, files map[string][]byte, root string, remote xsd.Loader) (*wsdl.Definitions, *importProblem) {
	loader := xsd.Loaders{xsd.FileSet(files)}
	if remote != nil {
		loader = append(loader, remote)
	}
	defs, err := wsdl.Parse(ctx, loader, root, xmlstream.Limits{MaxSize: MaxImportXMLBytes})
	if err == nil {
		return defs, nil
	}
	if ie, ok := xsd.AsImportError(err); ok {
		return nil, &importProblem{File: redactLocation(ie.File), Line: ie.Line, Reason: ie.Reason}
	}
	return nil, &importProblem{File: root, Reason: err.Error()}
}

// repairActions suggests what to do next.
func repairActions(rep RepairReport) []string {
	var out []string
	if rep.NamespaceRepairs.Summary.UndeclaredPrefixes > 0 {
		out = append(out, "download the repair package (POST /wsdl/repair-package) to get the files with the proposed namespace declarations")
	}
	if n := rep.NamespaceRepairs.Summary.Unresolved; n > 0 {
		out = append(out, "declare the "+strconv.Itoa(n)+" prefix(es) without a proposal by hand")
	}
	if rep.References.Summary[RefMissing] > 0 {
		out = append(out, "add the missing referenced files at the paths the WSDL uses")
	}
	if rep.References.Summary[RefRemoteUnchecked] > 0 {
		out = append(out, "set checkRemote to fetch remote references, or include them in a ZIP")
	}
	if rep.References.Summary[RefRemoteFailed] > 0 {
		out = append(out, "make the unreachable remote references available, or include them in a ZIP")
	}
	if rep.Status == RepairImportable && len(out) == 0 {
		out = append(out, "import it (POST /wsdl/import-xml:autopilot)")
	}
	return out
}
