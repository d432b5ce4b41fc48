package cipherd

import (
	"context"
	"iter"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// Keys lists every key in name order, fetching pages as the loop asks for them.
func (c *Client) Keys(ctx context.Context) iter.Seq2[*cipherdpb.Key, error] {
	return func(yield func(*cipherdpb.Key, error) bool) {
		token := ""
		for {
			resp, err := c.Admin.ListKeys(ctx, &cipherdpb.ListKeysRequest{PageToken: token})
			if err != nil {
				yield(nil, err)
				return
			}
			for _, k := range resp.GetKeys() {
				if !yield(k, nil) {
					return
				}
			}
			if token = resp.GetNextPageToken(); token == "" {
				return
			}
		}
	}
}
