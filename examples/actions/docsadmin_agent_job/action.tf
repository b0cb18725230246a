# Run on demand: terraform apply -invoke=action.docsadmin_agent_job.changelog
action "docsadmin_agent_job" "changelog" {
  config {
    project_id = "proj_docs"
    prompt     = "Add the 2.4 release notes to the changelog"
    wait       = true
    timeout    = "30m"
  }
}

# Or after another change: here, whenever the API reference is re-exported.
resource "terraform_data" "api_reference" {
  input = var.openapi_sha

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.docsadmin_agent_job.changelog]
    }
  }
}

variable "openapi_sha" {
  type = string
}
