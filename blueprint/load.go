package blueprint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// The file names of the folder-per-agent layout
// (config/agents/<name>/agent.json).
const (
	fileName       = "agent.json"
	promptFileName = "agent.system-prompt.md"
)

// Load reads one blueprint. path is an agent.json file, or a folder holding
// one. When the file is named agent.json and an agent.system-prompt.md sits
// beside it, that file is the system prompt (long prompts read better as
// Markdown than as a JSON string); setting system_prompt in agent.json too
// is an error. The folder's name need not match the agent's name. Every
// failure is a [*LoadError] naming the file.
func Load(path string) (*Blueprint, error) {
	file := path
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		file = filepath.Join(path, fileName)
	}
	return loadFile(file)
}

func loadFile(file string) (*Blueprint, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, &LoadError{Path: file, Err: stripPath(err)}
	}
	var prompt *string
	if filepath.Base(file) == fileName {
		p, err := os.ReadFile(filepath.Join(filepath.Dir(file), promptFileName))
		switch {
		case err == nil:
			s := string(p)
			prompt = &s
		case !errors.Is(err, fs.ErrNotExist):
			return nil, &LoadError{Path: filepath.Join(filepath.Dir(file), promptFileName), Err: stripPath(err)}
		}
	}
	b, err := parse(data, prompt)
	if err != nil {
		return nil, &LoadError{Path: file, Err: err}
	}
	b.path = file
	return b, nil
}

// stripPath drops an *fs.PathError's own path (the LoadError has it); the
// cause still matches fs.ErrNotExist and friends.
func stripPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// LoadDir loads every agent.json found in dir or any folder below it. One
// bad blueprint does not hide the others: LoadDir returns every blueprint
// that loaded, sorted by name, together with an error joining one
// [*LoadError] per file that did not (nil when all loaded). Two blueprints
// with the same name are an error on the one whose path sorts later
// ([ErrDuplicateName]). Hidden folders (".git") are skipped.
func LoadDir(dir string) ([]*Blueprint, error) {
	var (
		files []string
		errs  []error
	)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			errs = append(errs, &LoadError{Path: path, Err: stripPath(err)})
			return nil
		}
		if d.IsDir() && path != dir && len(d.Name()) > 1 && d.Name()[0] == '.' {
			return fs.SkipDir
		}
		if !d.IsDir() && d.Name() == fileName {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, &LoadError{Path: dir, Err: stripPath(err)}
	}
	sort.Strings(files)
	var (
		out  []*Blueprint
		seen = map[string]string{}
	)
	for _, f := range files {
		b, err := loadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if first, dup := seen[b.name]; dup {
			errs = append(errs, &LoadError{Path: f, Err: &dupError{name: b.name, first: first}})
			continue
		}
		seen[b.name] = f
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, errors.Join(errs...)
}

// dupError says which file took a name first; it matches ErrDuplicateName.
type dupError struct{ name, first string }

func (e *dupError) Error() string {
	return ErrDuplicateName.Error() + " " + `"` + e.name + `" (first defined in ` + e.first + ")"
}

func (e *dupError) Unwrap() error { return ErrDuplicateName }
