resource "docsadmin_static_export" "docs" {
  domain = "docs.example.com"
}

# A fresh link for this run only; nothing is written to plan or state.
ephemeral "docsadmin_static_export_bundle" "docs" {
  job_id = docsadmin_static_export.docs.id
}

# Its use: write-only arguments (Terraform 1.11+) and provider settings.
resource "docsadmin_static_export_rollout" "docs" {
  release   = "docs"
  namespace = "docs"

  bundle_url_wo         = ephemeral.docsadmin_static_export_bundle.docs.bundle_url
  bundle_url_wo_version = docsadmin_static_export.docs.id
  version               = docsadmin_static_export.docs.content_version
}
