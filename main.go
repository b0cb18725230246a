// Command terraform-provider-docsadmin is one binary with several faces:
// with no arguments (or -debug) it serves the Terraform provider; the
// apiserver subcommand runs the reference admin API; serve-bundle serves a
// static export bundle in the self-hosted chart's container; rollout
// exports the docs and upgrades the self-hosted Helm release with the
// bundle's link, once or in a watch loop.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundleserve"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rolloutcmd"
)

// version is set by the release build (-ldflags "-X main.version=...").
var version = "dev"

const providerAddress = "registry.terraform.io/docsadmin/docsadmin"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ctx := context.Background()
	if len(args) > 0 {
		switch args[0] {
		case "apiserver":
			return apiservercmd.Command(ctx, args[1:], os.Stdout, os.Stderr)
		case "rollout":
			return rolloutcmd.Command(ctx, args[1:], os.Stdout, os.Stderr)
		case "serve-bundle":
			return bundleserve.Command(ctx, args[1:], os.Stdout, os.Stderr)
		case "version", "--version":
			fmt.Println(version)
			return 0
		}
	}
	fs := flag.NewFlagSet("terraform-provider-docsadmin", flag.ContinueOnError)
	debug := fs.Bool("debug", false, "run the provider with support for debuggers such as delve")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage:\n  terraform-provider-docsadmin [-debug]        serve the Terraform provider\n"+
			"  terraform-provider-docsadmin apiserver ...   run the reference admin API (see apiserver -h)\n"+
			"  terraform-provider-docsadmin rollout ...     upgrade the self-hosted Helm release with a fresh bundle (see rollout -h)\n"+
			"  terraform-provider-docsadmin serve-bundle ... download, verify and serve a bundle (see serve-bundle -h)\n"+
			"  terraform-provider-docsadmin version\n")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "unknown subcommand %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	provider.QuietUnrequestedLogs()
	err := providerserver.Serve(ctx, provider.New(version), providerserver.ServeOpts{
		Address: providerAddress,
		Debug:   *debug,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
