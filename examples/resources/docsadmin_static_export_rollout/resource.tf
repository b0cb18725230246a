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
