package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"
)

// ModulePath is the client's module path: what go get and import statements name.
const ModulePath = "github.com/cipherd/cipherd/clients/go"

// Publish writes version of the module in moduleDir into the proxy directory out and returns the
// directory of the module's versions. The files are those git tracks in moduleDir or would track
// (untracked but not ignored), as they are on disk: what a commit of the working tree would hold.
// golang.org/x/mod/zip checks and lays out the zip as the go command expects it, leaving out
// nested modules (this one among them).
func Publish(moduleDir, version, out string, now time.Time) (string, error) {
	if !semver.IsValid(version) || semver.Canonical(version) != version || semver.Build(version) != "" {
		return "", fmt.Errorf("version %q is not a canonical semantic version such as v0.31.0", version)
	}
	if major := semver.Major(version); major != "v0" && major != "v1" {
		return "", fmt.Errorf("version %s needs the module path to end in /%s first", version, major)
	}
	gomod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		return "", err
	}
	if path := modfile.ModulePath(gomod); path != ModulePath {
		return "", fmt.Errorf("%s/go.mod declares module %q, not %s", moduleDir, path, ModulePath)
	}
	files, err := moduleFiles(moduleDir)
	if err != nil {
		return "", err
	}
	escaped, err := module.EscapePath(ModulePath)
	if err != nil {
		return "", err
	}
	versions := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(versions, 0o755); err != nil {
		return "", err
	}
	base := filepath.Join(versions, version)
	zipFile, err := os.Create(base + ".zip")
	if err != nil {
		return "", err
	}
	err = modzip.Create(zipFile, module.Version{Path: ModulePath, Version: version}, files)
	if closeErr := zipFile.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		os.Remove(base + ".zip")
		return "", fmt.Errorf("zipping the module: %w", err)
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    string
	}{version, now.UTC().Format(time.RFC3339)})
	if err := os.WriteFile(base+".info", info, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(base+".mod", gomod, 0o644); err != nil {
		return "", err
	}
	return versions, addToList(filepath.Join(versions, "list"), version)
}

// moduleFiles are the files of moduleDir that git tracks or would track, as zip entries.
func moduleFiles(moduleDir string) ([]modzip.File, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".")
	cmd.Dir = moduleDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	listed, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %v: %s", moduleDir, err, strings.TrimSpace(stderr.String()))
	}
	var files []modzip.File
	for _, name := range strings.Split(strings.TrimRight(string(listed), "\x00"), "\x00") {
		path := filepath.Join(moduleDir, filepath.FromSlash(name))
		info, err := os.Lstat(path)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree: not part of the next commit
		}
		if err != nil {
			return nil, err
		}
		if !info.Mode().IsRegular() {
			continue
		}
		files = append(files, diskFile{name: name, path: path, info: info})
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("git lists no files in %s", moduleDir)
	}
	return files, nil
}

// diskFile is one file of the module as x/mod/zip reads it.
type diskFile struct {
	name, path string
	info       os.FileInfo
}

func (f diskFile) Path() string                 { return f.name }
func (f diskFile) Lstat() (os.FileInfo, error)  { return f.info, nil }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.path) }

// addToList adds version to the proxy's list of versions, one a line, sorted by semver.
func addToList(list, version string) error {
	data, err := os.ReadFile(list)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	versions := strings.Fields(string(data))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	semver.Sort(versions)
	return os.WriteFile(list, []byte(strings.Join(versions, "\n")+"\n"), 0o644)
}
