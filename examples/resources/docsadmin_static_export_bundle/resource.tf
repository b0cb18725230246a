resource "docsadmin_static_export" "docs" {
  domain = "docs.example.com"
}

# A download link for the export. Links expire; every plan that runs
# within renew_before of expires_at shows an in-place update that renews
# the link for the same export job.
resource "docsadmin_static_export_bundle" "docs" {
  job_id       = docsadmin_static_export.docs.id
  renew_before = "30m"
}

output "bundle_url" {
  value     = docsadmin_static_export_bundle.docs.bundle_url
  sensitive = true
}
