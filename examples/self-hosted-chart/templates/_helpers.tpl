{{/* Name of the chart, overridable with nameOverride. */}}
{{- define "docsadmin.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified name. Kubernetes names are limited to 63 characters; the
release name is not repeated when it already contains the chart name.
*/}}
{{- define "docsadmin.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "docsadmin.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "docsadmin.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "docsadmin.selectorLabels" -}}
app.kubernetes.io/name: {{ include "docsadmin.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "docsadmin.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "docsadmin.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* The Secret that holds the bundle link. */}}
{{- define "docsadmin.bundleSecret" -}}
{{ include "docsadmin.fullname" . }}-bundle
{{- end }}

{{/*
The renewer's names and selector. Its pods carry a name of their own, so
neither the Service nor serve-bundle's Deployment ever selects them.
*/}}
{{- define "docsadmin.renewer" -}}
{{ include "docsadmin.fullname" . | trunc 55 | trimSuffix "-" }}-renewer
{{- end }}

{{- define "docsadmin.renewerSelectorLabels" -}}
app.kubernetes.io/name: {{ include "docsadmin.name" . | trunc 55 | trimSuffix "-" }}-renewer
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The Secret holding the renewer's API key: an existing one, or ours. */}}
{{- define "docsadmin.renewerKeySecret" -}}
{{ .Values.renewer.apiKey.existingSecret | default (include "docsadmin.renewer" .) }}
{{- end }}

{{/*
renewer.releases with every namespace filled in (this release's by
default), as a YAML list.
*/}}
{{- define "docsadmin.renewerReleases" -}}
{{- $out := list }}
{{- range .Values.renewer.releases }}
{{- $out = append $out (merge (deepCopy .) (dict "namespace" $.Release.Namespace)) }}
{{- end }}
{{- toYaml $out }}
{{- end }}

{{/*
The namespaces the renewer works in: the listed releases', those
renewer.selectorNamespaces lists for a selected fleet or, without either,
this release's. Its Role is created in each and nowhere else.
*/}}
{{- define "docsadmin.renewerNamespaces" -}}
{{- $ns := list }}
{{- range (include "docsadmin.renewerReleases" . | fromYamlArray) }}
{{- $ns = append $ns .namespace }}
{{- end }}
{{- if and .Values.renewer.selector (not $ns) }}
{{- $ns = .Values.renewer.selectorNamespaces }}
{{- end }}
{{- if not $ns }}
{{- $ns = list .Release.Namespace }}
{{- end }}
{{- toYaml ($ns | uniq | sortAlpha) }}
{{- end }}

{{/*
What the renewer may do in a namespace it upgrades releases in.
*/}}
{{- define "docsadmin.renewerRules" -}}
# Helm keeps each revision of the release in a Secret: it lists them by
# label to find the last one, creates the new one, updates the previous
# one to superseded, and deletes those beyond the history limit. The
# chart's bundle Secret (the link) is created, patched and, on a rollback
# of a first upgrade, deleted like any other object of the release. RBAC
# cannot name Secrets by prefix, so this reaches every Secret of the
# namespace: give the release a namespace of its own.
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "list", "create", "update", "patch", "delete"]
# serve-bundle's Deployment and Service, and the renewer's own Deployment:
# Helm reads each object to diff it, patches what changed, creates what
# is new (staticExport.enabled turned on by the first rollout) and deletes
# what a rollback removes.
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "create", "patch", "delete"]
- apiGroups: [""]
  resources: ["services"]
  verbs: ["get", "create", "patch", "delete"]
# Waiting (--atomic, --wait) finds a Deployment's newest ReplicaSet to tell
# whether it has rolled out.
- apiGroups: ["apps"]
  resources: ["replicasets"]
  verbs: ["list"]
# These three objects are part of the release too, so Helm reads them to
# diff them; a renewal never changes them (it reuses the release's chart
# and changes only staticExport values). Read-only, so the renewer cannot
# widen its own rights.
- apiGroups: [""]
  resources: ["serviceaccounts"]
  verbs: ["get"]
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["roles", "rolebindings"]
  verbs: ["get"]
# Events on the release (upgraded, failed, needs attention) for
# `kubectl get events`; the fleet's ConfigMap and the metrics Service
# are part of a release too, read to diff them.
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create"]
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get"]
{{- end }}
