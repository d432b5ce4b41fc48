// Command kube is a single-node Kubernetes control plane, node agent and client in one binary, for
// cipherd's cluster tests (make test-k8s): `kube apiserver|controller-manager|scheduler|kubelet|proxy|kubectl|etcd ARGS`.
// Each subcommand is the upstream component's own command, exactly as its main package builds it;
// linking them together compiles the shared dependencies once (.ci/install-kubernetes).
package main

import (
	"context"
	"fmt"
	"os"
	_ "time/tzdata" // CronJob time zones, as kube-apiserver and kube-controller-manager import it

	"github.com/spf13/cobra"
	"go.etcd.io/etcd/server/v3/etcdmain"
	_ "k8s.io/client-go/plugin/pkg/client/auth" // kubectl's client auth plugins
	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	_ "k8s.io/component-base/logs/json/register"          // JSON log format
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric
	kubectl "k8s.io/kubectl/pkg/cmd"
	kubectlutil "k8s.io/kubectl/pkg/cmd/util"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	proxy "k8s.io/kubernetes/cmd/kube-proxy/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
	kubelet "k8s.io/kubernetes/cmd/kubelet/app"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: kube apiserver|controller-manager|scheduler|kubelet|proxy|kubectl|etcd [ARGS]")
		os.Exit(2)
	}
	name, args := os.Args[1], os.Args[2:]
	var command *cobra.Command
	switch name {
	case "apiserver":
		command = apiserver.NewAPIServerCommand()
	case "controller-manager":
		command = controllermanager.NewControllerManagerCommand()
	case "proxy":
		command = proxy.NewProxyCommand()
	case "scheduler":
		command = scheduler.NewSchedulerCommand()
	case "kubelet":
		command = kubelet.NewKubeletCommand(context.Background())
	case "kubectl":
		// As cmd/kubectl does: verbosity before the command is built, errors printed kubectl's way.
		os.Args = append([]string{"kubectl"}, args...)
		logs.GlogSetter(kubectl.GetLogVerbosity(os.Args)) //nolint:errcheck
		c := kubectl.NewDefaultKubectlCommand()
		if err := cli.RunNoErrOutput(c); err != nil {
			kubectlutil.CheckErr(err)
		}
		return
	case "etcd":
		etcdmain.Main(append([]string{"etcd"}, args...))
		return
	default:
		fmt.Fprintf(os.Stderr, "kube: unknown component %q\n", name)
		os.Exit(2)
	}
	command.SetArgs(args)
	os.Exit(cli.Run(command))
}
