package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/types/known/timestamppb"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// newImportJobCommand is keys import-job: an import job for material wrapped elsewhere (openssl,
// an HSM), to send with keys import --import-job --wrapped-in.
func newImportJobCommand(conn *connection) *cobra.Command {
	var rsa4096 bool
	var publicKeyOut string
	cmd := &cobra.Command{Use: "import-job NAME", Short: "Create an import job for NAME: print its id and RSA public key, to wrap key material for elsewhere", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withClient(cmd, conn, func(c *cipherd.Client) error {
				algorithm := cipherd.ImportWrappingRSA3072
				if rsa4096 {
					algorithm = cipherd.ImportWrappingRSA4096
				}
				job, err := c.CreateImportJob(cmd.Context(), args[0], algorithm)
				if err != nil {
					return err
				}
				if publicKeyOut != "" {
					if err := os.WriteFile(publicKeyOut, []byte(job.PublicKeyPEM), 0o644); err != nil {
						return fmt.Errorf("writing the public key: %w", err)
					}
				}
				return printJSON(cmd.OutOrStdout(), &cipherdpb.ImportJob{ImportJobId: job.ID, KeyName: job.KeyName,
					WrappingAlgorithm: cipherdpb.ImportWrappingAlgorithm(job.WrappingAlgorithm), PublicKeyPem: job.PublicKeyPEM,
					ExpireTime: timestamppb.New(job.ExpireTime)})
			})
		}}
	cmd.Long = `import-job asks the server for an import job: a one-time RSA public key for one import
into NAME, valid until its expireTime on the server that made it. Wrap the material for it (docs/importing-keys.md
has the openssl recipe) and send the result with keys import NAME --import-job ID --wrapped-in FILE.
keys import wraps material itself; this is for material that must never reach this machine unwrapped.`
	cmd.Flags().BoolVar(&rsa4096, "rsa-4096", false, "an RSA-4096 job key instead of RSA-3072")
	cmd.Flags().StringVar(&publicKeyOut, "public-key-out", "", "also write the job's public key (PEM) to this file")
	return cmd
}
