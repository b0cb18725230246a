package kubeblock

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// execAPIVersions are the ExecCredential versions client-go speaks; the
// first is the default, as in kubeconfig files written today.
var execAPIVersions = []string{"client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"}

// Block describes how to reach the cluster without a kubeconfig
// file. It is a block of the resource rather than of the provider so that a
// cluster created in the same run can feed it: its values may be unknown
// at plan time and are only needed at apply.
func Block() schema.SingleNestedBlock {
	return schema.SingleNestedBlock{
		MarkdownDescription: "How to reach the cluster, as an alternative to `kubeconfig_path`, usually wired from the " +
			"resource that creates the cluster in the same run. Needs `host` and one kind of credentials: `token`, " +
			"`client_certificate` with `client_key`, or an `exec` block. `token`, `client_key` and `exec.env` are stored in " +
			"state (marked sensitive); their write-only forms `token_wo`, `client_key_wo` and `exec.env_wo` (Terraform 1.11 " +
			"and later) never are, and take ephemeral values, such as a token from an ephemeral resource. Credentials are never logged. " +
			"With write-only credentials, refresh cannot reach the cluster (Terraform gives it no configuration); the " +
			"plan reads the release instead, so drift still shows.",
		Attributes: map[string]schema.Attribute{
			"host": schema.StringAttribute{
				MarkdownDescription: "URL of the Kubernetes API server, such as `https://203.0.113.10:6443`.",
				Optional:            true,
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "Bearer token, such as a ServiceAccount token. Stored in state; prefer `token_wo`.",
				Optional:            true,
				Sensitive:           true,
			},
			"token_wo": schema.StringAttribute{
				MarkdownDescription: "Write-only bearer token: never stored in plan or state, and may come from an ephemeral resource.",
				Optional:            true,
				Sensitive:           true,
				WriteOnly:           true,
			},
			"cluster_ca_certificate": schema.StringAttribute{
				MarkdownDescription: "PEM certificates that the API server's certificate must chain to. Defaults to the system roots.",
				Optional:            true,
			},
			"client_certificate": schema.StringAttribute{
				MarkdownDescription: "PEM client certificate for TLS client authentication, with `client_key`.",
				Optional:            true,
			},
			"client_key": schema.StringAttribute{
				MarkdownDescription: "PEM private key of `client_certificate`. Stored in state; prefer `client_key_wo`.",
				Optional:            true,
				Sensitive:           true,
			},
			"client_key_wo": schema.StringAttribute{
				MarkdownDescription: "Write-only PEM private key of `client_certificate`: never stored in plan or state.",
				Optional:            true,
				Sensitive:           true,
				WriteOnly:           true,
			},
			"insecure": schema.BoolAttribute{
				MarkdownDescription: "Skip verifying the API server's certificate. Only for throw-away test clusters; conflicts with `cluster_ca_certificate`.",
				Optional:            true,
			},
		},
		Blocks: map[string]schema.Block{"exec": schema.SingleNestedBlock{
			MarkdownDescription: "A client-go credential plugin run at apply to get credentials, such as " +
				"`aws eks get-token` or `gke-gcloud-auth-plugin`. It must print an ExecCredential.",
			Attributes: map[string]schema.Attribute{
				"api_version": schema.StringAttribute{
					MarkdownDescription: "ExecCredential version the plugin speaks. Defaults to `" + execAPIVersions[0] + "`.",
					Optional:            true,
				},
				"command": schema.StringAttribute{
					MarkdownDescription: "The plugin: an absolute path or a name looked up in `PATH`.",
					Optional:            true,
				},
				"args": schema.ListAttribute{
					MarkdownDescription: "Arguments of the plugin.",
					ElementType:         types.StringType,
					Optional:            true,
				},
				"env": schema.MapAttribute{
					MarkdownDescription: "Environment variables set for the plugin, in addition to the provider's. Stored in state; " +
						"put secrets in `env_wo`.",
					ElementType: types.StringType,
					Optional:    true,
				},
				"env_wo": schema.MapAttribute{
					MarkdownDescription: "Write-only environment variables for the plugin, such as a secret access key: never " +
						"stored in plan or state. A name may not be in both `env` and `env_wo`.",
					ElementType: types.StringType,
					Optional:    true,
					Sensitive:   true,
					WriteOnly:   true,
				},
			},
		}},
	}
}

type kubernetesModel struct {
	Host        types.String `tfsdk:"host"`
	Token       types.String `tfsdk:"token"`
	TokenWO     types.String `tfsdk:"token_wo"`
	CACert      types.String `tfsdk:"cluster_ca_certificate"`
	ClientCert  types.String `tfsdk:"client_certificate"`
	ClientKey   types.String `tfsdk:"client_key"`
	ClientKeyWO types.String `tfsdk:"client_key_wo"`
	Insecure    types.Bool   `tfsdk:"insecure"`
	Exec        types.Object `tfsdk:"exec"`
}

type execModel struct {
	APIVersion types.String `tfsdk:"api_version"`
	Command    types.String `tfsdk:"command"`
	Args       types.List   `tfsdk:"args"`
	Env        types.Map    `tfsdk:"env"`
	EnvWO      types.Map    `tfsdk:"env_wo"`
}

// kubernetesSettings reads the block; ok is false when it is absent or
// (in a dynamic configuration) not known yet. The write-only forms are
// folded into token, client_key and env, so the checks and the client see
// one value whichever form carried it; setting both forms is an error.
func kubernetesSettings(ctx context.Context, obj types.Object, diags *diag.Diagnostics) (k kubernetesModel, e *execModel, ok bool) {
	if obj.IsNull() || obj.IsUnknown() {
		return k, nil, false
	}
	diags.Append(obj.As(ctx, &k, basetypes.ObjectAsOptions{})...)
	root := path.Root("kubernetes")
	for _, f := range []struct {
		name      string
		plain, wo *types.String
	}{{"token", &k.Token, &k.TokenWO}, {"client_key", &k.ClientKey, &k.ClientKeyWO}} {
		if f.wo.IsNull() {
			continue
		}
		if !f.plain.IsNull() {
			diags.AddAttributeError(root.AtName(f.name+"_wo"), "Conflicting Kubernetes Credentials",
				f.name+" and "+f.name+"_wo are both set; set only the write-only one, which is never stored in state.")
		}
		*f.plain = *f.wo
	}
	if !k.Exec.IsNull() && !k.Exec.IsUnknown() {
		e = new(execModel)
		diags.Append(k.Exec.As(ctx, e, basetypes.ObjectAsOptions{})...)
		e.Env = mergeEnv(ctx, e.Env, e.EnvWO, root.AtName("exec").AtName("env_wo"), diags)
	}
	return k, e, !diags.HasError()
}

// mergeEnv is env with env_wo's variables added; a name in both is an
// error, since which one the plugin should see would be a guess.
func mergeEnv(ctx context.Context, env, wo types.Map, at path.Path, diags *diag.Diagnostics) types.Map {
	if wo.IsNull() || wo.IsUnknown() || env.IsUnknown() {
		if env.IsNull() && !wo.IsNull() {
			return wo
		}
		return env
	}
	merged := map[string]string{}
	if !env.IsNull() {
		diags.Append(env.ElementsAs(ctx, &merged, false)...)
	}
	if merged == nil {
		merged = map[string]string{} // ElementsAs of an empty map leaves nil
	}
	extra := map[string]string{}
	diags.Append(wo.ElementsAs(ctx, &extra, false)...)
	for name, v := range extra {
		if _, dup := merged[name]; dup {
			diags.AddAttributeError(at, "Conflicting Exec Environment", fmt.Sprintf("%s is in both env and env_wo; set it in one of them.", name))
		}
		merged[name] = v
	}
	m, d := types.MapValueFrom(ctx, types.StringType, merged)
	diags.Append(d...)
	return m
}

// WriteOnlyCredentials reports whether a configuration's kubernetes block
// passes any credential write-only. Such a block is stored without it, so
// refresh, which Terraform gives no configuration, cannot authenticate:
// the rollout records the fact privately and reads the release at plan
// time instead.
func WriteOnlyCredentials(ctx context.Context, config types.Object) bool {
	if config.IsNull() || config.IsUnknown() {
		return false
	}
	var k kubernetesModel
	if config.As(ctx, &k, basetypes.ObjectAsOptions{}).HasError() {
		return false
	}
	if !k.TokenWO.IsNull() || !k.ClientKeyWO.IsNull() {
		return true
	}
	var e execModel
	if k.Exec.IsNull() || k.Exec.IsUnknown() || k.Exec.As(ctx, &e, basetypes.ObjectAsOptions{}).HasError() {
		return false
	}
	return !e.EnvWO.IsNull()
}

// Validate checks the block at plan time; kubeconfigPath and kubeContext
// are the resource's other ways to reach a cluster, which conflict with
// it. Unknown values count as set and are checked at apply, when
// RESTConfig builds the client.
func Validate(ctx context.Context, obj types.Object, kubeconfigPath, kubeContext types.String, diags *diag.Diagnostics) {
	k, e, ok := kubernetesSettings(ctx, obj, diags)
	if !ok {
		return
	}
	root := path.Root("kubernetes")
	for name, v := range map[string]types.String{"kubeconfig_path": kubeconfigPath, "kube_context": kubeContext} {
		if !v.IsNull() {
			diags.AddAttributeError(path.Root(name), "Conflicting Cluster Settings",
				name+" and the kubernetes block both say how to reach the cluster; set only one of them.")
		}
	}
	if k.Host.IsNull() {
		diags.AddAttributeError(root.AtName("host"), "Missing Kubernetes Host",
			"The kubernetes block needs host, the URL of the API server, such as https://203.0.113.10:6443.")
	} else if !k.Host.IsUnknown() {
		if _, _, err := rest.DefaultServerUrlFor(&rest.Config{Host: k.Host.ValueString()}); err != nil {
			diags.AddAttributeError(root.AtName("host"), "Invalid Kubernetes Host", fmt.Sprintf("%q: %s.", k.Host.ValueString(), err))
		}
	}
	var kinds []string
	if !k.Token.IsNull() {
		kinds = append(kinds, "token")
	}
	if !k.ClientCert.IsNull() || !k.ClientKey.IsNull() {
		kinds = append(kinds, "client_certificate")
	}
	if e != nil {
		kinds = append(kinds, "exec")
	}
	switch {
	case len(kinds) == 0:
		diags.AddAttributeError(root, "Missing Kubernetes Credentials",
			"The kubernetes block has no credentials: set token, client_certificate with client_key, or an exec block.")
	case len(kinds) > 1:
		diags.AddAttributeError(root.AtName(kinds[1]), "Conflicting Kubernetes Credentials",
			fmt.Sprintf("%s and %s are both set; set one kind of credentials.", kinds[0], kinds[1]))
	}
	if k.ClientCert.IsNull() != k.ClientKey.IsNull() {
		diags.AddAttributeError(root.AtName("client_key"), "Incomplete Client Certificate",
			"client_certificate and client_key go together: set both, or neither.")
	}
	if k.Insecure.ValueBool() && !k.CACert.IsNull() {
		diags.AddAttributeError(root.AtName("insecure"), "Conflicting TLS Settings",
			"insecure skips verifying the API server, so cluster_ca_certificate would be ignored; set only one of them.")
	}
	checkPEM(root.AtName("cluster_ca_certificate"), "CA Certificate", k.CACert, diags)
	checkPEM(root.AtName("client_certificate"), "Client Certificate", k.ClientCert, diags)
	if tfvalue.Known(k.ClientKey) {
		if err := checkKey(k.ClientCert, k.ClientKey); err != nil {
			diags.AddAttributeError(root.AtName("client_key"), "Invalid Client Key", err.Error())
		}
	}
	if e != nil {
		ep := root.AtName("exec")
		if e.Command.IsNull() || (tfvalue.Known(e.Command) && e.Command.ValueString() == "") {
			diags.AddAttributeError(ep.AtName("command"), "Missing Exec Command",
				"The exec block needs command, the credential plugin to run, such as \"aws\" or an absolute path.")
		}
		if tfvalue.Known(e.APIVersion) && !slices.Contains(execAPIVersions, e.APIVersion.ValueString()) {
			diags.AddAttributeError(ep.AtName("api_version"), "Unsupported Exec API Version",
				fmt.Sprintf("%q is not one of %s.", e.APIVersion.ValueString(), strings.Join(execAPIVersions, ", ")))
		}
	}
}

// checkPEM checks that v, when known, holds only PEM certificates.
func checkPEM(p path.Path, what string, v types.String, diags *diag.Diagnostics) {
	if !tfvalue.Known(v) {
		return
	}
	if _, err := parseCertificates(v.ValueString()); err != nil {
		diags.AddAttributeError(p, "Invalid "+what, err.Error())
	}
}

// parseCertificates decodes PEM text holding one or more certificates.
func parseCertificates(text string) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	data := []byte(text)
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("expected PEM CERTIFICATE blocks, found a %q block", b.Type)
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parse certificate: %w", err)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, errors.New("no PEM certificate found; expected text starting with -----BEGIN CERTIFICATE-----")
	}
	return certs, nil
}

// checkKey checks a PEM private key, and that it matches the certificate
// when that is known too. Its errors never quote the key.
func checkKey(cert, key types.String) error {
	b, _ := pem.Decode([]byte(key.ValueString()))
	if b == nil || !strings.HasSuffix(b.Type, "PRIVATE KEY") {
		return errors.New("no PEM private key found; expected text starting with -----BEGIN ... PRIVATE KEY-----")
	}
	if !tfvalue.Known(cert) {
		return nil
	}
	if _, err := tls.X509KeyPair([]byte(cert.ValueString()), []byte(key.ValueString())); err != nil {
		return fmt.Errorf("client_key does not fit client_certificate: %w", err)
	}
	return nil
}

// RESTConfig builds the client configuration from the block at apply (or
// refresh), when every value is known.
func RESTConfig(ctx context.Context, obj types.Object, diags *diag.Diagnostics) *rest.Config {
	k, e, ok := kubernetesSettings(ctx, obj, diags)
	if !ok {
		return nil
	}
	rc := &rest.Config{
		Host:        k.Host.ValueString(),
		BearerToken: k.Token.ValueString(),
		TLSClientConfig: rest.TLSClientConfig{
			Insecure: k.Insecure.ValueBool(),
			CAData:   []byte(k.CACert.ValueString()),
			CertData: []byte(k.ClientCert.ValueString()),
			KeyData:  []byte(k.ClientKey.ValueString()),
		},
	}
	if e == nil {
		return rc
	}
	ex := &clientcmdapi.ExecConfig{
		APIVersion: e.APIVersion.ValueString(),
		Command:    e.Command.ValueString(),
		// Terraform runs the provider without a terminal to prompt on.
		InteractiveMode: clientcmdapi.NeverExecInteractiveMode,
	}
	if ex.APIVersion == "" {
		ex.APIVersion = execAPIVersions[0]
	}
	diags.Append(e.Args.ElementsAs(ctx, &ex.Args, false)...)
	env := map[string]string{}
	diags.Append(e.Env.ElementsAs(ctx, &env, false)...)
	for _, name := range slices.Sorted(maps.Keys(env)) {
		ex.Env = append(ex.Env, clientcmdapi.ExecEnvVar{Name: name, Value: env[name]})
	}
	rc.ExecProvider = ex
	return rc
}
