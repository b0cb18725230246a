package rollout

import (
	"errors"
	"fmt"
	"io"
	"os"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	helmcli "helm.sh/helm/v3/pkg/cli"
	"helm.sh/helm/v3/pkg/downloader"
	"helm.sh/helm/v3/pkg/getter"
	"helm.sh/helm/v3/pkg/registry"
	"helm.sh/helm/v3/pkg/repo"
)

// loadChart loads the request's chart: a local directory or archive, the
// chart named Chart in the repository ChartRepo, or an oci:// reference,
// at ChartVersion (a version or constraint; empty means the newest). Helm's
// own repository, registry and download code does the work, with the
// helm CLI's settings (HELM_CACHE_HOME, HELM_REGISTRY_CONFIG, ...), so
// credentials from `helm registry login` apply.
func loadChart(req Request) (*chart.Chart, error) {
	oci := registry.IsOCI(req.Chart)
	if req.ChartRepo == "" && !oci {
		if req.ChartVersion != "" {
			return nil, errors.New("a chart version needs a chart repository or an oci:// chart")
		}
		ch, err := loader.Load(req.Chart)
		if err != nil {
			return nil, fmt.Errorf("load chart %s: %w", req.Chart, err)
		}
		return ch, nil
	}
	if oci && req.ChartRepo != "" {
		return nil, errors.New("an oci:// chart takes no chart repository")
	}
	settings := helmcli.New()
	opts := []getter.Option{getter.WithPlainHTTP(req.ChartPlainHTTP)}
	dl := downloader.ChartDownloader{
		// Helm prints "Pulled: ..." here; our log says what was loaded.
		Out:              io.Discard,
		Getters:          getter.All(settings),
		RepositoryConfig: settings.RepositoryConfig,
		RepositoryCache:  settings.RepositoryCache,
	}
	ref := req.Chart
	if oci {
		rcOpts := []registry.ClientOption{registry.ClientOptWriter(io.Discard),
			registry.ClientOptCredentialsFile(settings.RegistryConfig)}
		if req.ChartPlainHTTP {
			rcOpts = append(rcOpts, registry.ClientOptPlainHTTP())
		}
		rc, err := registry.NewClient(rcOpts...)
		if err != nil {
			return nil, fmt.Errorf("registry client: %w", err)
		}
		dl.RegistryClient = rc
		opts = append(opts, getter.WithRegistryClient(rc))
	} else {
		url, err := repo.FindChartInRepoURL(req.ChartRepo, req.Chart, req.ChartVersion, "", "", "", getter.All(settings))
		if err != nil {
			return nil, fmt.Errorf("find chart %s %s in %s: %w", req.Chart, req.ChartVersion, req.ChartRepo, err)
		}
		ref = url
	}
	dl.Options = opts
	if err := os.MkdirAll(settings.RepositoryCache, 0o750); err != nil {
		return nil, fmt.Errorf("chart cache: %w", err)
	}
	path, _, err := dl.DownloadTo(ref, req.ChartVersion, settings.RepositoryCache)
	if err != nil {
		return nil, fmt.Errorf("download chart %s %s: %w", req.Chart, req.ChartVersion, err)
	}
	ch, err := loader.Load(path)
	if err != nil {
		return nil, fmt.Errorf("load chart %s: %w", path, err)
	}
	return ch, nil
}

// ChartID loads the chart a request names and returns its name-version, as
// State.Chart reports a release's. Callers that decide a release needs no
// new revision compare the two, so a chart passed explicitly is never
// skipped because the link and the content are unchanged.
func ChartID(req Request) (string, error) {
	ch, err := loadChart(req)
	if err != nil {
		return "", err
	}
	return ch.Metadata.Name + "-" + ch.Metadata.Version, nil
}
