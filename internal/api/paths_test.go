package api

import "testing"

func TestFillPath(t *testing.T) {
	for _, c := range []struct {
		pattern string
		params  map[string]string
		want    string
	}{
		{PathBundleDownload, map[string]string{"jobId": "se_0123456789abcdef", "file": BundleFileName},
			"/bundles/se_0123456789abcdef/bundle.tar.gz"},
		{PathAgentJob, map[string]string{"projectId": "a/b", "id": "x y"}, "/v2/agent/a%2Fb/job/x%20y"},
		{PathExportJob, nil, "/v1/static-export/jobs/{jobId}"},
	} {
		if got := FillPath(c.pattern, c.params); got != c.want {
			t.Errorf("FillPath(%q, %v) = %q, want %q", c.pattern, c.params, got, c.want)
		}
	}
}
