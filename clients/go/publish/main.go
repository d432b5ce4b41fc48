// Command publish writes the Go client as a module version in the layout of a Go module proxy
// (GOPROXY protocol: <module>/@v/list, <version>.info, .mod and .zip), built from the checkout's
// files that git tracks or would track. The directory can be served as it is over HTTPS, used as
// GOPROXY=file://DIR, or its .zip and .mod uploaded to an internal proxy (docs/development.md,
// "Publishing the Go client").
//
//	cd clients/go/publish && go run . -module-dir .. -version v0.31.0 -out /srv/goproxy
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	version := flag.String("version", "", "the module version to publish, e.g. v0.31.0 (semver, with its v)")
	out := flag.String("out", "", "the proxy directory to write into (created if missing; other versions stay)")
	dir := flag.String("module-dir", ".", "the client module's directory (clients/go)")
	flag.Parse()
	if *version == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: publish -version vX.Y.Z -out DIR [-module-dir clients/go]")
		os.Exit(2)
	}
	written, err := Publish(*dir, *version, *out, time.Now())
	if err != nil {
		fmt.Fprintln(os.Stderr, "publish:", err)
		os.Exit(1)
	}
	fmt.Printf("%s@%s: %s\n", ModulePath, *version, written)
}
