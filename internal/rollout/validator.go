package rollout

import (
	"sync"

	"helm.sh/helm/v3/pkg/kube"
	"k8s.io/kubectl/pkg/validation"
)

var (
	_ kube.Factory      = (*validatorCache)(nil)
	_ validation.Schema = (*cachedSchema)(nil)
)

// validatorCache keeps the schema Helm validates manifests with for the
// Roller's lifetime. kubectl's factory builds a new one on every call, and
// Helm asks for one on every Build (three per upgrade): each new schema
// fetched and parsed the server's OpenAPI v3 document of every group
// version in the manifest to learn whether the server validates fields
// itself. That was half the CPU time of an upgrade on a real cluster
// (TestFleet_profileOnCluster). The answer does not change while the
// process runs, so the schema, and with it kubectl's per-kind memo of the
// answer, is kept. Since that memo keeps errors too, a schema that returns
// any error is dropped and the next Build asks the server again, so a
// failed look-up (an API server restarting, say) is never remembered.
type validatorCache struct {
	kube.Factory

	mu      sync.Mutex
	schemas map[string]*cachedSchema
}

// cacheValidation makes kc's Factory keep its validation schemas; any
// other kube client (a test's fake) is left as it is.
func cacheValidation(kc kube.Interface) {
	if c, ok := kc.(*kube.Client); ok {
		if _, done := c.Factory.(*validatorCache); !done {
			c.Factory = &validatorCache{Factory: c.Factory}
		}
	}
}

// Validator returns the kept schema for the directive, building it on
// first use or after the last one failed.
func (v *validatorCache) Validator(directive string) (validation.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.schemas[directive]; ok {
		return s, nil
	}
	inner, err := v.Factory.Validator(directive)
	if err != nil {
		return nil, err
	}
	if v.schemas == nil {
		v.schemas = map[string]*cachedSchema{}
	}
	s := &cachedSchema{Schema: inner, drop: func(s *cachedSchema) { v.drop(directive, s) }}
	v.schemas[directive] = s
	return s, nil
}

func (v *validatorCache) drop(directive string, s *cachedSchema) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.schemas[directive] == s {
		delete(v.schemas, directive)
	}
}

// cachedSchema is a kept schema; an error of any kind retires it.
type cachedSchema struct {
	validation.Schema
	drop func(*cachedSchema)
}

func (s *cachedSchema) ValidateBytes(data []byte) error {
	err := s.Schema.ValidateBytes(data)
	if err != nil {
		s.drop(s)
	}
	return err
}
