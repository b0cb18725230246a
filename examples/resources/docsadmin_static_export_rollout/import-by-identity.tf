# Terraform 1.12 and later: import the release by its identity. Set job_id in
# the resource so that the release's link never enters state.
import {
  to       = docsadmin_static_export_rollout.docs
  identity = { namespace = "docs", release = "docs" }
}
