# Import the bundle of an export job by the job ID. The next apply
# generates a fresh link; the export itself is not redone.
terraform import docsadmin_static_export_bundle.docs se_3f9a2c1b8e7d4a06
