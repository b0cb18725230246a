# Import an export job started elsewhere by its job ID. The first apply
# afterwards adopts the configured domain, version, paths and triggers
# without exporting again.
terraform import docsadmin_static_export.docs se_3f9a2c1b8e7d4a06
