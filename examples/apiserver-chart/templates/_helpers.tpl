{{/* Name of the chart, overridable with nameOverride. */}}
{{- define "apiserver.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified name, at most 54 characters so that the suffixed names
below ("-database", "-objects", "-config") stay within Kubernetes' 63. The
release name is not repeated when it already contains the chart name.
*/}}
{{- define "apiserver.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 54 | trimSuffix "-" }}
{{- else if contains (include "apiserver.name" .) .Release.Name }}
{{- .Release.Name | trunc 54 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "apiserver.name" .) | trunc 54 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "apiserver.selectorLabels" -}}
app.kubernetes.io/name: {{ include "apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "apiserver.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "apiserver.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Whether the shared stores are configured (the schema allows both or neither). */}}
{{- define "apiserver.shared" -}}
{{- if or .Values.storage.database.existingSecret .Values.storage.database.url }}true{{ end }}
{{- end }}

{{/* The Secret holding the database URL: an existing one, or ours. */}}
{{- define "apiserver.databaseSecret" -}}
{{ .Values.storage.database.existingSecret | default (printf "%s-database" (include "apiserver.fullname" .)) }}
{{- end }}

{{/* The Secret holding the bucket URL and its credentials: an existing one, or ours. */}}
{{- define "apiserver.objectsSecret" -}}
{{ .Values.storage.objects.existingSecret | default (printf "%s-objects" (include "apiserver.fullname" .)) }}
{{- end }}

{{/* The Secret holding the config file: an existing one, or ours. */}}
{{- define "apiserver.configSecret" -}}
{{ .Values.config.existingSecret | default (printf "%s-config" (include "apiserver.fullname" .)) }}
{{- end }}

{{/* Base URL of bundle links: the value, or the Service's in-cluster address. */}}
{{- define "apiserver.publicURL" -}}
{{- .Values.publicURL | default (printf "http://%s.%s.svc:%v" (include "apiserver.fullname" .) .Release.Namespace .Values.service.port) }}
{{- end }}
