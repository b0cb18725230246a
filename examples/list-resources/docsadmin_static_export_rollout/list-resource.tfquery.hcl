# terraform query -generate-config-out=releases.tf writes a
# docsadmin_static_export_rollout and an import block for each release found.
list "docsadmin_static_export_rollout" "all" {
  provider         = docsadmin
  include_resource = true

  config {
    # Omit namespace to look in every namespace the credentials can read.
    namespace       = "docs"
    kubeconfig_path = pathexpand("~/.kube/config")
  }
}
