{{/* Chart name, at most 63 characters. */}}
{{- define "kvstore-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: fullnameOverride, else the release name (when it already holds the chart name), else release-chart. */}}
{{- define "kvstore-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "kvstore-operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every object. */}}
{{- define "kvstore-operator.labels" -}}
helm.sh/chart: {{ include "kvstore-operator.chart" . }}
{{ include "kvstore-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: kvstore
{{- end }}

{{/* Labels the Deployment selects its pods by (never change between upgrades). */}}
{{- define "kvstore-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kvstore-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end }}

{{- define "kvstore-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "kvstore-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "kvstore-operator.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "kvstore-operator.snapshotClaimName" -}}
{{- default (printf "%s-snapshots" (include "kvstore-operator.fullname" .)) .Values.snapshots.persistence.existingClaim }}
{{- end }}

{{/* The metrics Service: a DNS-1035 label, so at most 63 characters with its suffix. */}}
{{- define "kvstore-operator.metricsServiceName" -}}
{{- printf "%s-metrics" (include "kvstore-operator.fullname" . | trunc 55 | trimSuffix "-") }}
{{- end }}
