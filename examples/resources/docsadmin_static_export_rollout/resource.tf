resource "docsadmin_static_export" "docs" {
  domain = "docs.example.com"
}

# Recommended: the rollout fetches its own link for the job. State holds
# the job ID, the link's expiry and the content version, never the link.
# A plan within renew_before of the expiry shows an in-place update that
# writes a fresh link for the same job; pods do not restart. A helm
# upgrade that changes these values by hand shows as drift and is put
# back. Destroying this resource does not uninstall the release.
resource "docsadmin_static_export_rollout" "docs" {
  release         = "docs"
  namespace       = "docs"
  kubeconfig_path = pathexpand("~/.kube/config")
  kube_context    = "platform"

  job_id       = docsadmin_static_export.docs.id
  renew_before = "30m"
  # version defaults to the job's content version: new content rolls the
  # pods, a renewed link or a re-export of the same content does not.

  timeouts = {
    update = "15m"
  }
}

# A link from elsewhere, never stored either (Terraform 1.11+): an
# ephemeral link into the write-only argument. Terraform cannot compare
# write-only values; a new bundle_url_wo_version writes the link again.
ephemeral "docsadmin_static_export_bundle" "staging" {
  job_id = docsadmin_static_export.docs.id
}

resource "docsadmin_static_export_rollout" "staging" {
  release   = "docs"
  namespace = "docs-staging"

  bundle_url_wo         = ephemeral.docsadmin_static_export_bundle.staging.bundle_url
  bundle_url_wo_version = docsadmin_static_export.docs.id
  version               = docsadmin_static_export.docs.content_version
}

# A cluster reached without a kubeconfig file, for example one created in
# the same run: wire its endpoint and CA certificate from the resource that
# creates it (unknown at plan time is fine). A credential plugin fetches a
# short-lived token at apply, so no credential is stored in state. The
# chart comes from an OCI registry; recover_pending takes over a release
# left pending by an earlier run that was killed.
variable "cluster_endpoint" {
  type = string
}

variable "cluster_ca_certificate" {
  type = string
}

resource "docsadmin_static_export_rollout" "eks" {
  release          = "docs"
  namespace        = "docs"
  chart            = "oci://registry.example.com/charts/docsadmin-self-hosted"
  chart_version    = "0.1.0"
  install          = true
  create_namespace = true
  recover_pending  = true

  job_id = docsadmin_static_export.docs.id

  kubernetes {
    host                   = var.cluster_endpoint
    cluster_ca_certificate = var.cluster_ca_certificate
    exec {
      api_version = "client.authentication.k8s.io/v1beta1"
      command     = "aws"
      args        = ["eks", "get-token", "--cluster-name", "docs"]
    }
  }
}
