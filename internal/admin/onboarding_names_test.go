package admin

import "github.com/s2r-project/s2r/internal/admin/onboarding"

// The import, autopilot and repair tests decode onboarding's answers and
// use its limits under the names they had when onboarding lived here.
type (
	artifactView           = onboarding.ArtifactView
	autopilotResult        = onboarding.AutopilotResult
	draftSuggestion        = onboarding.DraftSuggestion
	batchResult            = onboarding.BatchResult
	batchSummary           = onboarding.BatchSummary
	namespaceRepairPreview = onboarding.NamespaceRepairPreview
	referenceReport        = onboarding.ReferenceReport
	repairManifest         = onboarding.RepairManifest
	repairReport           = onboarding.RepairReport
)

const (
	rootXMLName        = onboarding.RootXMLName
	refBuiltin         = onboarding.RefBuiltin
	refMissing         = onboarding.RefMissing
	refRemoteFailed    = onboarding.RefRemoteFailed
	refRemoteReachable = onboarding.RefRemoteReachable
	refRemoteUnchecked = onboarding.RefRemoteUnchecked
	refResolved        = onboarding.RefResolved
	repairImportable   = onboarding.RepairImportable
	repairManifestName = onboarding.RepairManifestName
	maxImportBodyBytes = onboarding.MaxImportBodyBytes
	maxImportXMLBytes  = onboarding.MaxImportXMLBytes
)

var safeFileName = onboarding.SafeFileName
