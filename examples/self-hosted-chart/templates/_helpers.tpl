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
The namespaces the renewer works in: the listed releases' or, without a
fleet, this release's. Its Role is created in each and nowhere else.
*/}}
{{- define "docsadmin.renewerNamespaces" -}}
{{- $ns := list }}
{{- range (include "docsadmin.renewerReleases" . | fromYamlArray) }}
{{- $ns = append $ns .namespace }}
{{- end }}
{{- if not $ns }}
{{- $ns = list .Release.Namespace }}
{{- end }}
{{- toYaml ($ns | uniq | sortAlpha) }}
{{- end }}
