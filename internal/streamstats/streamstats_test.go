package streamstats

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
)

func TestFromInfo(t *testing.T) {
	info := stream.Info{Fd: 3, Mode: stream.LineBuffered, Size: 131072, Policy: stream.PolicyBlksize, Blksize: 131072,
		Reads: 7, Writes: 2, Kernel: 1, Reason: "st_blksize 131072", Ahead: 5, Overlapped: 3, Waited: 1}
	want := Stream{Fd: 3, Mode: "line", Size: 131072, Policy: "blksize", Blksize: 131072, Reads: 7, Writes: 2, Kernel: 1, Reason: "st_blksize 131072",
		Ahead: 5, Overlapped: 3, Waited: 1}
	if diff := cmp.Diff(want, FromInfo(info)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := FromInfo(stream.Info{Policy: 65536}).Policy; got != "65536" {
		t.Errorf("a size policy is %q, want 65536", got)
	}
}

// TestEveryInfoField keeps Stream in step with stream.Info: a field added
// to Info must be added here too, or --stats=json would leave it out.
func TestEveryInfoField(t *testing.T) {
	info, st := reflect.TypeFor[stream.Info](), reflect.TypeFor[Stream]()
	for f := range info.Fields() {
		if _, ok := st.FieldByName(f.Name); !ok {
			t.Errorf("stream.Info.%s has no field in Stream", f.Name)
		}
	}
}

func TestReportJSON(t *testing.T) {
	r := Report{In: []Stream{{Mode: "full", Reason: `a "quoted" reason`}}, Out: Stream{Fd: 1, Mode: "none"}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"in":[{"fd":0,"mode":"full","size":0,"policy":"","blksize":0,"reads":0,"writes":0,"kernel":0,"reason":"a \"quoted\" reason","ahead":0,"overlapped":0,"waited":0}],` +
		`"out":{"fd":1,"mode":"none","size":0,"policy":"","blksize":0,"reads":0,"writes":0,"kernel":0,"reason":"","ahead":0,"overlapped":0,"waited":0}}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
}
