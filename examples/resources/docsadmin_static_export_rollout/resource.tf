resource "docsadmin_static_export" "docs" {
  domain = "docs.example.com"
}

resource "docsadmin_static_export_bundle" "docs" {
  job_id       = docsadmin_static_export.docs.id
  renew_before = "30m"
}

# Points the self-hosted release at the bundle. Every terraform apply that
# renews the link upgrades the release with the new link and its expiry;
# a helm upgrade that changes these values by hand shows as drift and is
# put back. Destroying this resource does not uninstall the release.
resource "docsadmin_static_export_rollout" "docs" {
  release         = "docs"
  namespace       = "docs"
  kubeconfig_path = pathexpand("~/.kube/config")
  kube_context    = "platform"

  bundle_url = docsadmin_static_export_bundle.docs.bundle_url
  expires_at = docsadmin_static_export_bundle.docs.expires_at
  # The content version: new content rolls the pods, a renewed link or a
  # re-export of the same content does not.
  version = docsadmin_static_export.docs.content_version

  timeouts = {
    update = "15m"
  }
}
