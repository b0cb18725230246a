variable "export_job_id" {
  type        = string
  description = "ID of a static export job started elsewhere, for example by CI."
}

# Waits (up to timeouts.read) until the job is completed or failed.
data "docsadmin_static_export" "nightly" {
  job_id = var.export_job_id
  wait   = true

  timeouts = {
    read = "20m"
  }
}

output "nightly_export" {
  value = data.docsadmin_static_export.nightly.status == "failed" ? "failed: ${data.docsadmin_static_export.nightly.error}" : "content ${data.docsadmin_static_export.nightly.content_version}, ${data.docsadmin_static_export.nightly.page_count} pages"
}
