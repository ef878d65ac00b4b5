package check

import "go/types"

// A package variable of another package may hold standard output:
// fatih/color's Output is colorable.NewColorableStdout(), which is
// os.Stdout where escape sequences need no translation, and commands
// write their output there. The package that declares such a variable
// exports a fieldFact on it, as it does on a struct field it stores a
// file in, and a package that names it takes it for that file.

// exportVars exports a fact for each exported package variable of an
// interface type or *os.File that may hold a file open for writing.
func (fl *flow) exportVars() {
	scope := fl.c.pass.Pkg.Scope()
	for id, obj := range fl.c.pass.TypesInfo.Defs {
		v, ok := obj.(*types.Var)
		if !ok || !v.Exported() || v.Parent() != scope || (!types.IsInterface(v.Type()) && !isOSFile(v.Type())) {
			continue
		}
		for _, o := range fl.varOrigins(id) {
			if o.path == "" && !o.call && o.t.param < 0 && !o.t.read {
				fl.c.pass.ExportObjectFact(v, &fieldFact{File: o.t.file, Stdout: o.t.stdout})
				break
			}
		}
	}
}

// importedVarOrigins returns the file another package's variable v holds,
// as its package's fact says.
func (fl *flow) importedVarOrigins(v *types.Var) []origin {
	if v.Pkg() == nil || v.Pkg() == fl.c.pass.Pkg {
		return nil
	}
	ff := new(fieldFact)
	if !fl.c.pass.ImportObjectFact(v, ff) {
		return nil
	}
	return []origin{{t: target{param: -1, file: ff.File, stdout: ff.Stdout}}}
}
