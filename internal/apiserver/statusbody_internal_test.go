package apiserver

import (
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// fullView is a status with every field set, warnings included.
func fullView() api.ExportJob {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return api.ExportJob{
		JobID: "se_0123456789abcdef", Status: api.ExportCompleted, Progress: 1, PageCount: 12,
		CreatedAt: at, UpdatedAt: at.Add(time.Minute), Error: "e", Version: "v1",
		Warnings: &api.ExportWarnings{Count: 2, Messages: []string{"a <b>", "c"}},
	}
}

// changed returns v with field i set to another value.
func changed(v api.ExportJob, i int) api.ExportJob {
	v = cloneView(v)
	f := reflect.ValueOf(&v).Elem().Field(i)
	switch x := f.Addr().Interface().(type) {
	case *string:
		*x += "x"
	case *float64:
		*x /= 2
	case *int:
		*x++
	case *time.Time:
		*x = x.Add(time.Second)
	case **api.ExportWarnings:
		(*x).Messages[0] = "other"
	default:
		panic("changed: add a case for field " + reflect.TypeFor[api.ExportJob]().Field(i).Name)
	}
	return v
}

// writeJSONBody is what writeJSON sends for v: the bytes the memo must
// reproduce.
func writeJSONBody(v api.ExportJob) (string, string) {
	rec := httptest.NewRecorder()
	writeJSON(rec, 200, v)
	return rec.Body.String(), rec.Header().Get("Content-Length")
}

// Every field of api.ExportJob counts in sameView: a status that changed
// in any field is encoded again, so the memo never sends an old answer.
// A field added to the API without a case in sameView fails here.
func TestSameView_everyField(t *testing.T) {
	base := fullView()
	if !sameView(&base, new(cloneView(base))) {
		t.Fatal("a view differs from its copy")
	}
	for i := range reflect.TypeFor[api.ExportJob]().NumField() {
		c := changed(base, i)
		if sameView(&base, &c) {
			t.Errorf("field %s changed, yet the views compare the same", reflect.TypeFor[api.ExportJob]().Field(i).Name)
		}
	}
	for _, pair := range [][2]*api.ExportWarnings{
		{nil, {}},
		{{Messages: nil}, {Messages: []string{}}}, // null and [] are different JSON
		{{Count: 1}, {Count: 2}},
	} {
		a, b := base, base
		a.Warnings, b.Warnings = pair[0], pair[1]
		if sameView(&a, &b) {
			t.Errorf("warnings %+v and %+v compare the same", pair[0], pair[1])
		}
	}
}

// The memo answers, for one job changing field by field and back, exactly
// the headers and bytes writeJSON does.
func TestStatusBodies_sameBytesAsWriteJSON(t *testing.T) {
	var c statusBodies
	views := []api.ExportJob{fullView(), fullView()} // the second from the memo
	for i := range reflect.TypeFor[api.ExportJob]().NumField() {
		views = append(views, changed(fullView(), i), fullView())
	}
	noWarnings := fullView()
	noWarnings.Warnings = nil
	views = append(views, noWarnings, noWarnings, fullView())
	for n, v := range views {
		rec := httptest.NewRecorder()
		c.write(rec, v)
		body, length := writeJSONBody(v)
		if rec.Code != 200 || rec.Body.String() != body || rec.Header().Get("Content-Length") != length ||
			rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("answer %d: %d %v %q\nwant %q (Content-Length %s)", n, rec.Code, rec.Header(), rec.Body, body, length)
		}
	}
}
