package layout_test

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decls are the names a package declares: its top-level names, and the
// methods and fields of each type.
type decls struct {
	names   map[string]bool
	members map[string]map[string]bool // type name → method and field names
	embeds  map[string][]string        // type name → the types it embeds, of the same package
}

// has reports whether the package declares name, or recv has the member
// name, its own or promoted from a type it embeds.
func (d *decls) has(recv, name string) bool {
	if recv == "" {
		return d.names[name]
	}
	seen := map[string]bool{}
	var find func(t string) bool
	find = func(t string) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if d.members[t][name] {
			return true
		}
		return slices.ContainsFunc(d.embeds[t], find)
	}
	return find(recv)
}

// parsedDir is the Go files of one directory, parsed with their comments.
type parsedDir struct {
	rel   string // slash-separated, from the repository
	files map[string]*ast.File
}

// readDirs parses every Go file of the repository, by directory.
func readDirs(t *testing.T, repo string) []parsedDir {
	t.Helper()
	fset := token.NewFileSet()
	byDir := map[string]*parsedDir{}
	err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != repo || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repo, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		pd := byDir[rel]
		if pd == nil {
			pd = &parsedDir{rel: rel, files: map[string]*ast.File{}}
			byDir[rel] = pd
		}
		pd.files[d.Name()] = f
		return nil
	})
	require.NoError(t, err)
	var out []parsedDir
	for _, pd := range byDir {
		out = append(out, *pd)
	}
	slices.SortFunc(out, func(a, b parsedDir) int { return strings.Compare(a.rel, b.rel) })
	return out
}

// declsOf collects what the files declare.
func declsOf(files map[string]*ast.File) *decls {
	d := &decls{names: map[string]bool{}, members: map[string]map[string]bool{}, embeds: map[string][]string{}}
	member := func(recv, name string) {
		if d.members[recv] == nil {
			d.members[recv] = map[string]bool{}
		}
		d.members[recv][name] = true
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil || len(decl.Recv.List) == 0 {
					d.names[decl.Name.Name] = true
					continue
				}
				typ := decl.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if idx, ok := typ.(*ast.IndexExpr); ok {
					typ = idx.X
				}
				if idx, ok := typ.(*ast.IndexListExpr); ok {
					typ = idx.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					member(id.Name, decl.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						d.names[spec.Name.Name] = true
						switch typ := spec.Type.(type) {
						case *ast.StructType:
							for _, fld := range typ.Fields.List {
								for _, n := range fld.Names {
									member(spec.Name.Name, n.Name)
								}
								if len(fld.Names) == 0 { // embedded: named by its type
									e := fld.Type
									if star, ok := e.(*ast.StarExpr); ok {
										e = star.X
									}
									switch e := e.(type) {
									case *ast.Ident:
										member(spec.Name.Name, e.Name)
										d.embeds[spec.Name.Name] = append(d.embeds[spec.Name.Name], e.Name)
									case *ast.SelectorExpr:
										member(spec.Name.Name, e.Sel.Name)
									}
								}
							}
						case *ast.InterfaceType:
							for _, m := range typ.Methods.List {
								for _, n := range m.Names {
									member(spec.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							d.names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return d
}

// docLinks returns the doc links of a comment's text, as the go/doc
// parser reads them given the package names the file imports.
func docLinks(text string, imports map[string]string) []*comment.DocLink {
	p := &comment.Parser{
		LookupPackage: func(name string) (string, bool) {
			ip, ok := imports[name]
			return ip, ok
		},
		LookupSym: func(recv, name string) bool { return true }, // every candidate is checked below
	}
	var out []*comment.DocLink
	var walk func(ts []comment.Text)
	walk = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				out = append(out, t)
			case *comment.Link:
				walk(t.Text)
			case *comment.Italic, comment.Plain:
			}
		}
	}
	var blocks func(bs []comment.Block)
	blocks = func(bs []comment.Block) {
		for _, b := range bs {
			switch b := b.(type) {
			case *comment.Paragraph:
				walk(b.Text)
			case *comment.Heading:
				walk(b.Text)
			case *comment.List:
				for _, it := range b.Items {
					blocks(it.Content)
				}
			}
		}
	}
	blocks(p.Parse(text).Content)
	return out
}

// importsOf maps the names a file imports packages under to their paths.
func importsOf(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if strings.HasPrefix(name, "v") && len(name) > 1 && strings.Trim(name[1:], "0123456789") == "" {
			name = path.Base(path.Dir(p)) // .../jsonschema/v6
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		m[name] = p
	}
	return m
}

// TestDocLinksResolve: every doc link in a comment of ours (a name, a
// method or a package's name in brackets, as go doc reads them) names
// something that exists, in the package itself or in another package of
// this repository (links into other modules are left to go doc). Brackets
// that cannot have been meant as a link are text: an empty name, a word in
// capitals (an SSE stream's [DONE]), an example's printed output.
func TestDocLinksResolve(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	dirs := readDirs(t, repo)
	byPath := map[string]*decls{}
	for _, d := range dirs {
		byPath[path.Join(root, d.rel)] = declsOf(d.files)
	}
	if _, err := os.Stat(filepath.Join(repo, "schema")); err != nil {
		t.Fatal("the repository's packages are not where this test looks")
	}
	var bad []string
	links := 0
	for _, d := range dirs {
		own := byPath[path.Join(root, d.rel)]
		// go doc resolves a package name through the imports of any file
		// of the package, not only the comment's own.
		pkgImports := map[string]string{}
		for _, f := range d.files {
			maps.Copy(pkgImports, importsOf(f))
		}
		for name, f := range d.files {
			imports := maps.Clone(pkgImports)
			maps.Copy(imports, importsOf(f))
			for _, cg := range f.Comments {
				text := cg.Text()
				if strings.HasPrefix(text, "Output:") || strings.HasPrefix(text, "Unordered output:") {
					continue
				}
				for _, l := range docLinks(text, imports) {
					if l.Name == "" || len(l.Name) > 1 && strings.ToUpper(l.Name) == l.Name {
						continue
					}
					links++
					target := own
					if l.ImportPath != "" {
						if l.ImportPath != root && !strings.HasPrefix(l.ImportPath, root+"/") {
							continue
						}
						target = byPath[l.ImportPath]
					}
					if target == nil || !target.has(l.Recv, l.Name) {
						ref := l.Name
						if l.Recv != "" {
							ref = l.Recv + "." + ref
						}
						if l.ImportPath != "" {
							ref = l.ImportPath + "." + ref
						}
						bad = append(bad, path.Join(d.rel, name)+": ["+ref+"]")
					}
				}
			}
		}
	}
	require.Greater(t, links, 500, "doc links found")
	slices.Sort(bad)
	assert.Empty(t, slices.Compact(bad), "doc links that name nothing")
}

// TestDocLinksCanFail checks the link reader and the lookup on a comment
// made up.
func TestDocLinksCanFail(t *testing.T) {
	src := "package p\n\nimport \"github.com/agentio/agentio/schema\"\n\n// T has [T.M], [T.F], [Missing], [schema.Parse] and [schema.Nothing]; a[i] is not a link; [U.M] is promoted.\ntype T struct{ F int }\n\ntype U struct{ T }\n\nfunc (T) M() {}\n\nvar _ = schema.Parse\n"
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	d := declsOf(map[string]*ast.File{"p.go": f})
	var got []string
	for _, l := range docLinks(f.Comments[0].Text(), importsOf(f)) {
		ok := l.ImportPath != "" || d.has(l.Recv, l.Name)
		got = append(got, l.Recv+"."+l.Name+"@"+l.ImportPath+"="+strconv.FormatBool(ok))
	}
	assert.Equal(t, []string{
		"T.M@=true", "T.F@=true", ".Missing@=false",
		".Parse@github.com/agentio/agentio/schema=true", ".Nothing@github.com/agentio/agentio/schema=true", "U.M@=true",
	}, got)
}
