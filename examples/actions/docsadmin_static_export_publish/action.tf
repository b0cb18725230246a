# Publish now: terraform apply -invoke=action.docsadmin_static_export_publish.docs
action "docsadmin_static_export_publish" "docs" {
  config {
    domain          = "docs.example.com"
    release         = "docs"
    namespace       = "docs"
    kubeconfig_path = pathexpand("~/.kube/config")
  }
}

# Or publish whenever the content commit changes.
resource "terraform_data" "content" {
  input = var.content_sha

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.docsadmin_static_export_publish.docs]
    }
  }
}

variable "content_sha" {
  type = string
}
