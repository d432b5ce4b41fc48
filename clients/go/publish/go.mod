module github.com/cipherd/cipherd/clients/go/publish

go 1.26.0

require golang.org/x/mod v0.42.0
