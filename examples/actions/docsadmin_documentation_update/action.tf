# Run on demand: terraform apply -invoke=action.docsadmin_documentation_update.deploy
action "docsadmin_documentation_update" "deploy" {
  config {
    project_id = "proj_docs"
    timeout    = "15m"
  }
}

# Or after another change: here, whenever the docs repository's release tag
# moves, redeploy and wait; an update that fails fails the apply.
resource "terraform_data" "docs_release" {
  input = var.docs_release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.docsadmin_documentation_update.deploy]
    }
  }
}

variable "docs_release" {
  type = string
}
