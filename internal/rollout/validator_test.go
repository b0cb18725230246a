package rollout

import (
	"errors"
	"testing"

	"helm.sh/helm/v3/pkg/kube"
	"k8s.io/kubectl/pkg/validation"
)

// countingFactory builds schemas that fail while fail is set.
type countingFactory struct {
	kube.Factory
	built int
	fail  bool
}

func (f *countingFactory) Validator(string) (validation.Schema, error) {
	f.built++
	return failingSchema{f}, nil
}

type failingSchema struct{ f *countingFactory }

func (s failingSchema) ValidateBytes([]byte) error {
	if s.f.fail {
		return errors.New("the server's OpenAPI document could not be read")
	}
	return nil
}

// TestValidatorCache_keepsSchemaUntilItFails: Helm's Builds share one
// schema (kubectl's factory builds one per call, each fetching the
// server's OpenAPI v3 documents), and a schema that failed once is not
// kept, so a failed look-up is asked again rather than remembered.
func TestValidatorCache_keepsSchemaUntilItFails(t *testing.T) {
	inner := &countingFactory{}
	kc := &kube.Client{Factory: inner}
	cacheValidation(kc)
	cacheValidation(kc) // a second wrap would be harmless; there is none
	v := kc.Factory
	for range 3 {
		s, err := v.Validator("Strict")
		if err != nil || s.ValidateBytes(nil) != nil {
			t.Fatalf("validate: %v", err)
		}
	}
	if inner.built != 1 {
		t.Fatalf("%d schemas built for three Builds, want 1", inner.built)
	}
	inner.fail = true
	s, _ := v.Validator("Strict")
	if s.ValidateBytes(nil) == nil {
		t.Fatal("the failure was not passed on")
	}
	inner.fail = false
	s, _ = v.Validator("Strict")
	if err := s.ValidateBytes(nil); err != nil || inner.built != 2 {
		t.Fatalf("after a failure: %v, %d schemas built, want a new one (2)", err, inner.built)
	}
	if _, ok := kc.Factory.(*validatorCache).Factory.(*countingFactory); !ok {
		t.Fatal("the factory was wrapped twice")
	}
}
