# Export the whole published site, and export again whenever the docs
# repository moves to a new commit.
resource "docsadmin_static_export" "docs" {
  domain  = "docs.example.com"
  version = "2026-01"

  triggers = {
    commit = "3f9a2c1"
  }

  timeouts = {
    create = "45m"
  }
}

# Export only a few pages.
resource "docsadmin_static_export" "getting_started" {
  domain = "docs.example.com"
  paths  = ["index", "guides/getting-started"]
}
