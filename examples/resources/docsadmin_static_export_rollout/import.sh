# Import a release by <namespace>/<release>. Import reads the cluster named
# by KUBECONFIG and its current context; the first apply afterwards adopts
# kubeconfig_path and kube_context without a new revision.
KUBECONFIG=~/.kube/config terraform import docsadmin_static_export_rollout.docs docs/docs
