package cipherd_test

import (
	"context"
	"errors"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestComputeIndexBatch_versionOptionsAreRefusedLocally(t *testing.T) {
	var c cipherd.Client // no connection: the options are refused before any call
	for name, opt := range map[string]cipherd.IndexOption{
		"key version":  cipherd.WithIndexKeyVersion(2),
		"all versions": cipherd.WithAllVersions(),
	} {
		_, err := c.ComputeIndexBatch(context.Background(), "idx", []cipherd.IndexItem{{Reference: "a", Value: []byte("v")}}, opt)
		if !errors.Is(err, cipherd.ErrInvalidArgument) {
			t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
		}
	}
}
