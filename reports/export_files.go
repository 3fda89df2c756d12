package reports

import (
	"errors"
	"fmt"
	"slices"
)

// ExportFiles reads result files and exports their dispatch table (see
// Export), keeping feature sets apart: results of one CPU model measured
// with different feature sets (a VM hiding AVX-512, a TUNELAB_CPU mask)
// give an entry each instead of merged measurements. The files are read
// in groups in which every model has one feature set, and each group is
// analyzed on its own; defaults are computed over the models of every
// group. A file is taken to hold one feature set per model. ExportFiles
// returns the reader's warnings; with no files, the table is empty.
func ExportFiles(paths []string, opt Options) (*Table, []string, error) {
	if len(paths) == 0 {
		return (&Report{Set: &Set{}}).Export(), nil, nil
	}
	// Read everything once, to hold every run to one identity across all
	// files; when every model has one feature set this is the only read.
	set, warnings, err := Read(paths)
	if err != nil {
		return nil, warnings, err
	}
	reps := []*Report{Analyze(set, opt)}
	if groups := featureGroups(set.Files); len(groups) > 1 {
		if reps, warnings, err = analyzeGroups(groups, opt); err != nil {
			return nil, warnings, err
		}
	}
	t := joinReports(reps, paths).Export()
	unknown := 0
	for _, r := range reps {
		unknown += r.UnknownHostPoints()
	}
	if unknown > 0 {
		warnings = append(warnings, fmt.Sprintf("export: %d variant/size points carry no tunelab host identity (unknown host): no table entries or defaults are made from them", unknown))
		if len(t.Entries) == 0 && len(t.Defaults) == 0 {
			return nil, warnings, errors.New("export: no table entries: every result is from an unknown host; export needs results of tunelab sweep, which record the host's dispatch key and features")
		}
	}
	return t, warnings, nil
}

// analyzeGroups reads and analyzes each group of files on its own.
func analyzeGroups(groups [][]string, opt Options) ([]*Report, []string, error) {
	var reps []*Report
	var warnings []string
	for _, g := range groups {
		set, w, err := Read(g)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
		reps = append(reps, Analyze(set, opt))
	}
	return reps, warnings, nil
}

// A fileGroup is files in which every CPU model (by ID) has one feature
// set.
type fileGroup struct {
	paths    []string
	features map[string]string // model ID -> joined features
}

// featureGroups splits the files read, in order, into groups of paths
// in which every model has one feature set: each file joins the first
// group it agrees with.
func featureGroups(files []*File) [][]string {
	var groups []*fileGroup
	for _, f := range files {
		i := slices.IndexFunc(groups, func(g *fileGroup) bool { return g.agrees(f.features) })
		if i < 0 {
			i = len(groups)
			groups = append(groups, &fileGroup{features: map[string]string{}})
		}
		groups[i].paths = append(groups[i].paths, f.Path)
		for id, fs := range f.features {
			groups[i].features[id] = fs
		}
	}
	out := make([][]string, len(groups))
	for i, g := range groups {
		out[i] = g.paths
	}
	return out
}

func (g *fileGroup) agrees(fs map[string]string) bool {
	for id, f := range fs {
		if have, ok := g.features[id]; ok && have != f {
			return false
		}
	}
	return true
}

// joinReports joins the reports of file groups into one over all their
// files (in the order of paths), models, groups and size classes, as
// Export needs it.
func joinReports(reps []*Report, paths []string) *Report {
	if len(reps) == 1 {
		return reps[0]
	}
	j := &Report{Set: &Set{}, Options: reps[0].Options, MinSamples: reps[0].MinSamples}
	for _, r := range reps {
		j.Set.Files = append(j.Set.Files, r.Set.Files...)
		j.Set.Models = append(j.Set.Models, r.Set.Models...)
		j.Set.Points = append(j.Set.Points, r.Set.Points...)
		for _, v := range r.Set.variants {
			j.Set.noteVariant(v)
		}
		j.Groups = append(j.Groups, r.Groups...)
		j.Classes = append(j.Classes, r.Classes...)
	}
	slices.SortStableFunc(j.Set.Files, func(a, b *File) int {
		return slices.Index(paths, a.Path) - slices.Index(paths, b.Path)
	})
	return j
}
