# Import a release fed by job_id as <namespace>/<release>/<job_id>: the link
# the release carries never enters state. <namespace>/<release> imports a
# release fed by bundle_url. Import reads the cluster named by KUBECONFIG and
# its current context; the first apply afterwards adopts kubeconfig_path and
# kube_context without a new revision.
KUBECONFIG=~/.kube/config terraform import docsadmin_static_export_rollout.docs docs/docs/se_0123456789abcdef
