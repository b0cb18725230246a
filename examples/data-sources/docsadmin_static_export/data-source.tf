variable "export_job_id" {
  type        = string
  description = "ID of a static export job started elsewhere, for example by CI."
}

data "docsadmin_static_export" "nightly" {
  id = var.export_job_id
}

output "nightly_export_status" {
  value = "${data.docsadmin_static_export.nightly.status} (${data.docsadmin_static_export.nightly.page_count} pages)"
}
