package analyzer

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
)

// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format) as code
// scanning services read it: one run, the tool's driver with a rule per check
// of the catalogue (id, name, short and full description, help text,
// default level), and a result per diagnostic with its rule, level, message
// and one physical location (artifact URI relative to the source root, start
// line and column). Only the properties mkvet has something to say in are
// written; the figures behind a message go in the result's property bag.

// SARIFSchema is the URI of the schema the log declares.
const SARIFSchema = "https://json.schemastore.org/sarif-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
	// OriginalURIBaseIDs names the source root the artifact URIs are
	// relative to (SRCROOT, as code scanning expects).
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name"`
	ShortDescription     sarifText          `json:"shortDescription"`
	FullDescription      sarifText          `json:"fullDescription"`
	Help                 sarifText          `json:"help"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifText       `json:"message"`
	Locations  []sarifLocation `json:"locations,omitempty"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// SARIF returns ds as a SARIF 2.1.0 log. root is the directory the artifact
// URIs are made relative to (the repository a code-scanning upload is for);
// files outside it keep their path as given. version is mkvet's.
func SARIF(ds []Diagnostic, version, root string) ([]byte, error) {
	driver := sarifDriver{Name: "mkvet", Version: version, InformationURI: "https://github.com/mkvet/mkvet"}
	index := map[string]int{}
	for i, c := range Checks {
		index[c.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   c.ID,
			Name:                 ruleName(c.Title),
			ShortDescription:     sarifText{Text: c.Title},
			FullDescription:      sarifText{Text: firstSentence(c.Doc)},
			Help:                 sarifText{Text: strings.TrimSpace(c.Doc)},
			DefaultConfiguration: sarifConfiguration{Level: sarifLevel(c.Severity.String())},
		})
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}}
	if root != "" {
		u := fileURI(root)
		if !strings.HasSuffix(u, "/") {
			u += "/" // a base URI names a directory
		}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{"SRCROOT": {URI: u}}
	}
	for _, d := range ds {
		r := sarifResult{RuleID: d.ID, RuleIndex: index[d.ID], Level: sarifLevel(d.Severity.String()),
			Message: sarifText{Text: d.Message}}
		if len(d.Facts) > 0 || d.Node != "" {
			r.Properties = map[string]any{}
			for k, v := range d.Facts {
				r.Properties[k] = v
			}
			if d.Node != "" {
				r.Properties["node"] = d.Node
			}
		}
		if d.Pos.File != "" {
			loc := sarifPhysical{ArtifactLocation: artifact(d.Pos.File, root)}
			if d.Pos.Line > 0 {
				loc.Region = &sarifRegion{StartLine: d.Pos.Line, StartColumn: max(d.Pos.Col, 0)}
			}
			r.Locations = []sarifLocation{{PhysicalLocation: loc}}
		}
		run.Results = append(run.Results, r)
	}
	log := sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	return json.MarshalIndent(log, "", "  ")
}

// sarifLevel maps a severity to SARIF's levels (none, note, warning, error).
func sarifLevel(s string) string {
	switch s {
	case "error", "warning", "note":
		return s
	}
	return "none"
}

// ruleName turns a title into the PascalCase name SARIF suggests for a
// rule ("hot loop nest" -> "HotLoopNest").
func ruleName(title string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(title, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// firstSentence is the first sentence of a doc text, on one line.
func firstSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i+1]
	}
	return doc
}

// artifact is a file's location: relative to root (with uriBaseId SRCROOT)
// when it is under it, else the path as an absolute file URI or as given.
func artifact(file, root string) sarifArtifactLocation {
	if root != "" {
		abs, err1 := filepath.Abs(file)
		r, err2 := filepath.Abs(root)
		if err1 == nil && err2 == nil {
			if rel, err := filepath.Rel(r, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				return sarifArtifactLocation{URI: filepath.ToSlash(rel), URIBaseID: "SRCROOT"}
			}
		}
	}
	if filepath.IsAbs(file) {
		return sarifArtifactLocation{URI: fileURI(file)}
	}
	return sarifArtifactLocation{URI: filepath.ToSlash(file)}
}

// fileURI is the absolute file URI of a path.
func fileURI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
