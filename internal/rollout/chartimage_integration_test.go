package rollout

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/v1/remote"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/image"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/releasetest"
)

// TestCharts_imageDefaultsToTheRelease: both charts name, by default, the
// repository the release publishes its image to (internal/image), with the
// chart's appVersion as the tag; the renewer shares the value.
func TestCharts_imageDefaultsToTheRelease(t *testing.T) {
	for _, chart := range []string{chartPath, apiServerChart} {
		b, err := os.ReadFile(chart + "/values.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var vals struct {
			Image struct{ Repository, Tag string }
		}
		if err := yaml.Unmarshal(b, &vals); err != nil {
			t.Fatal(err)
		}
		if vals.Image.Repository != image.Repository || vals.Image.Tag != "" {
			t.Errorf("%s: image %s:%q, want %s with the tag left to appVersion", chart, vals.Image.Repository, vals.Image.Tag, image.Repository)
		}
	}
}

// TestCharts_runTheReleaseImage installs both charts, and the self-hosted
// chart's renewer, with the release's image pushed to a registry on
// loopback, and checks that every pod the cluster made names that image.
// The kwok node marks pods running without pulling or starting anything,
// so what is checked is the pod spec and that the registry serves the
// reference; TestImage_runs (internal/image) starts the image's entrypoint.
func TestCharts_runTheReleaseImage(t *testing.T) {
	r := releasetest.Snapshot(t)
	ref := releasetest.Push(t, releasetest.Registry(t), r.Version, r.Image(t))
	if _, err := remote.Head(ref, remote.WithContext(t.Context())); err != nil {
		t.Fatalf("the registry does not serve %s: %v", ref, err)
	}
	c := kubetest.Start(t, kubetest.WithNodes())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cs := c.Namespace(t, apiServerNS)
	imageVals := map[string]interface{}{"repository": ref.Context().Name(), "tag": ref.TagStr()}

	ac := apiServerHelm(t, c)
	install := func(release, chart string, vals map[string]interface{}) {
		t.Helper()
		ch, err := loader.Load(chart)
		if err != nil {
			t.Fatal(err)
		}
		vals["image"] = imageVals
		in := action.NewInstall(ac)
		in.ReleaseName, in.Namespace = release, apiServerNS
		in.Wait, in.Timeout = true, 2*time.Minute
		in.KubeVersion = testKubeVersion
		if _, err := in.RunWithContext(ctx, ch, vals); err != nil {
			t.Fatalf("install %s: %v", chart, err)
		}
	}
	install("docs", apiServerChart, apiServerEmbeddedValues(false))
	install("site", chartPath, map[string]interface{}{
		"staticExport": map[string]interface{}{"enabled": true, "bundleUrl": "https://bundles.example.com/site.tar.gz"},
		"renewer": map[string]interface{}{
			"enabled": true, "apiUrl": "https://api.example.com", "domain": "docs.example.com",
			"apiKey": map[string]interface{}{"value": "mint_0123456789abcdef", "secretKey": "apiKey"},
		},
	})

	pods, err := cs.CoreV1().Pods(apiServerNS).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range pods.Items {
		for _, ctr := range append(p.Spec.InitContainers, p.Spec.Containers...) {
			seen[ctr.Name] = true
			if ctr.Image != ref.String() {
				t.Errorf("pod %s, container %s: image %s, want the release's %s", p.Name, ctr.Name, ctr.Image, ref)
			}
		}
	}
	for _, name := range []string{"apiserver", "serve-bundle", "renewer"} {
		if !seen[name] {
			t.Errorf("no pod ran a %s container; containers seen: %v", name, seen)
		}
	}
}
