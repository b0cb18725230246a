# Quickstart: export a documentation site and point a self-hosted release
# at it with docsadmin_static_export_rollout and job_id, the recommended
# flow: the provider fetches and renews the bundle link itself and never
# stores it in state. The rollout is created when kubeconfig_path is set.
# Run it against the reference server with `make demo`, or a real API:
#
#   export DOCSADMIN_BASE_URL=https://api.mintlify.com
#   export DOCSADMIN_API_KEY=mint_...
#   terraform init && terraform apply -var domain=docs.example.com

terraform {
  required_version = ">= 1.5.0"

  required_providers {
    docsadmin = {
      source = "docsadmin/docsadmin"
    }
  }
}

variable "domain" {
  type        = string
  description = "Hostname of the documentation deployment to export."
  default     = "docs.demo.test"
}

variable "content_revision" {
  type        = string
  description = "Anything that identifies the content; changing it exports again."
  default     = "initial"
}

# base_url and api_key come from DOCSADMIN_BASE_URL and DOCSADMIN_API_KEY.
provider "docsadmin" {}

resource "docsadmin_static_export" "site" {
  domain = var.domain

  triggers = {
    revision = var.content_revision
  }
}

variable "kubeconfig_path" {
  type        = string
  description = "Kubeconfig of the cluster running the self-hosted release; empty skips the rollout."
  default     = ""
}

resource "docsadmin_static_export_rollout" "site" {
  count           = var.kubeconfig_path == "" ? 0 : 1
  release         = "docs"
  namespace       = "docs"
  kubeconfig_path = var.kubeconfig_path
  job_id          = docsadmin_static_export.site.id
}

output "job_id" {
  description = "The export job; `make demo` asks the API for a download link to it."
  value       = docsadmin_static_export.site.id
}

output "page_count" {
  value = docsadmin_static_export.site.page_count
}

output "content_version" {
  description = "Content version of the export: what the rollout pins the release to."
  value       = docsadmin_static_export.site.content_version
}

# A download link for scripts belongs in an ephemeral resource, opened for
# one run and never stored, feeding a write-only argument such as the
# rollout's bundle_url_wo (examples/ephemeral-resources). The rollout above
# needs no link at all: with job_id it fetches and renews its own.
