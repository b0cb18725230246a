# Terraform 1.12 and later: import by the job's identity.
import {
  to       = docsadmin_static_export.docs
  identity = { job_id = "se_3f9a2c1b8e7d4a06" }
}
