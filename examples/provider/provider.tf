provider "docsadmin" {
  base_url   = "https://api.mintlify.com"
  project_id = "my-project-id"

  # Keep the admin key out of configuration: the provider reads
  # DOCSADMIN_API_KEY when api_key is not set.
  # api_key = var.admin_api_key

  request_timeout = "30s"
  max_retries     = 4
}
