module github.com/cipherd/cipherd/server/ff1crosscheck

go 1.26

require github.com/capitalone/fpe v1.2.1
