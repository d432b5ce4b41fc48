module github.com/cipherd/cipherd/clients/crosslang/ff1ref

go 1.26

require github.com/capitalone/fpe v1.2.1
