// SPDX-License-Identifier: GPL-2.0

// varlink-go-interop: the Go varlink library (github.com/varlink/go, as
// Debian ships it) against the in-kernel varlink server.
//
// It asks the server for its interfaces (GetInfo), fetches each
// description (GetInterfaceDescription) and parses it with the library's
// IDL parser (every one must parse, but for the test interfaces named in
// beyondParser), then calls the read methods of the org.kernel.* interfaces
// and decodes each reply twice: checked against the method's output type
// in the parsed IDL (every field there, of its type, and nothing else),
// and into a Go struct of its own, strictly (no unknown fields), whose
// values are then looked at.  Methods of org.kernel.* that have no
// required argument and read (Get*, List*, Describe*) but no Go struct
// here yet are still called and checked against their IDL.
//
// Output is TAP, its plan first (the results are kept until the end, when
// their number is known); the exit status is 0 when every test passed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/varlink/go/varlink"
	"github.com/varlink/go/varlink/idl"
)

// TAP output, into body until the plan can go before it
type tap struct {
	n, failed int
}

var body bytes.Buffer

func (t *tap) result(err error, format string, args ...interface{}) bool {
	t.n++
	name := fmt.Sprintf(format, args...)
	if err != nil {
		t.failed++
		fmt.Fprintf(&body, "not ok %d - %s\n", t.n, name)
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(&body, "# %s\n", line)
		}
		return false
	}
	fmt.Fprintf(&body, "ok %d - %s\n", t.n, name)
	return true
}

func diag(format string, args ...interface{}) {
	fmt.Fprintf(&body, "# %s\n", fmt.Sprintf(format, args...))
}

// call makes a call and returns the raw parameters of its reply.
func call(ctx context.Context, c *varlink.Connection, method string,
	params interface{}) (json.RawMessage, error) {
	receive, err := c.Send(ctx, method, params, 0)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	flags, err := receive(ctx, &raw)
	if err != nil {
		return nil, describeError(err)
	}
	if flags&varlink.Continues != 0 {
		return nil, fmt.Errorf("%s: \"continues\" in the reply to a call without \"more\"", method)
	}
	if raw == nil {
		raw = json.RawMessage("{}")
	}
	return raw, nil
}

// describeError gives a varlink error with its parameters.
func describeError(err error) error {
	var e *varlink.Error
	if errors.As(err, &e) {
		if p, ok := e.Parameters.(*json.RawMessage); ok && p != nil {
			return fmt.Errorf("%s %s", e.Name, string(*p))
		}
		return fmt.Errorf("%s", e.Name)
	}
	return err
}

// decodeStrict decodes @raw into @out, refusing fields @out does not have.
func decodeStrict(raw json.RawMessage, out interface{}) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(out); err != nil {
		return fmt.Errorf("decoding %s: %v", string(raw), err)
	}
	return nil
}

// Checking a JSON value against a type of a parsed IDL

var intLexeme = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

func conforms(v interface{}, t *idl.Type, iface *idl.IDL, path string) error {
	switch t.Kind {
	case idl.TypeMaybe:
		if v == nil {
			return nil
		}
		return conforms(v, t.ElementType, iface, path)
	case idl.TypeAlias:
		for _, a := range iface.Aliases {
			if a.Name == t.Alias {
				return conforms(v, a.Type, iface, path)
			}
		}
		return fmt.Errorf("%s: unknown type %s", path, t.Alias)
	}
	if v == nil {
		return fmt.Errorf("%s: null or absent, but not nullable", path)
	}
	switch t.Kind {
	case idl.TypeBool:
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: %v is not a bool", path, v)
		}
	case idl.TypeInt:
		n, ok := v.(json.Number)
		if !ok || !intLexeme.MatchString(string(n)) {
			return fmt.Errorf("%s: %v is not an int", path, v)
		}
	case idl.TypeFloat:
		if _, ok := v.(json.Number); !ok {
			return fmt.Errorf("%s: %v is not a float", path, v)
		}
	case idl.TypeString:
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s: %v is not a string", path, v)
		}
	case idl.TypeObject:
		if _, ok := v.(map[string]interface{}); !ok {
			return fmt.Errorf("%s: %v is not an object", path, v)
		}
	case idl.TypeEnum:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: %v is not an enum value", path, v)
		}
		for _, f := range t.Fields {
			if f.Name == s {
				return nil
			}
		}
		return fmt.Errorf("%s: %q is not a value of the enum", path, s)
	case idl.TypeArray:
		a, ok := v.([]interface{})
		if !ok {
			return fmt.Errorf("%s: %v is not an array", path, v)
		}
		for i, e := range a {
			if err := conforms(e, t.ElementType, iface, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case idl.TypeMap:
		m, ok := v.(map[string]interface{})
		if !ok {
			return fmt.Errorf("%s: %v is not a map", path, v)
		}
		for k, e := range m {
			if err := conforms(e, t.ElementType, iface, path+"["+k+"]"); err != nil {
				return err
			}
		}
	case idl.TypeStruct:
		m, ok := v.(map[string]interface{})
		if !ok {
			return fmt.Errorf("%s: %v is not a struct", path, v)
		}
		known := map[string]bool{}
		for _, f := range t.Fields {
			known[f.Name] = true
			if err := conforms(m[f.Name], f.Type, iface, path+"."+f.Name); err != nil {
				return err
			}
		}
		for k := range m {
			if !known[k] {
				return fmt.Errorf("%s: field %q is not in the IDL", path, k)
			}
		}
	default:
		return fmt.Errorf("%s: type kind %d unknown", path, t.Kind)
	}
	return nil
}

// conformsRaw checks the parameters of a reply against a method's output.
func conformsRaw(raw json.RawMessage, iface *idl.IDL, method string) error {
	for _, m := range iface.Methods {
		if m.Name != method {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var v interface{}
		if err := d.Decode(&v); err != nil {
			return err
		}
		return conforms(v, m.Out, iface, "parameters")
	}
	return fmt.Errorf("%s has no method %s", iface.Name, method)
}

// What the Go library's parser (0.4.0) cannot read: the type any of
// UAPI.20, which it predates.  Only the test interfaces named here may use
// it; every other description must parse.
var beyondParser = map[string]string{
	"org.kernel.varlink.test": "it uses the type any (UAPI.20), which varlink/go 0.4.0 predates",
}

var anyType = regexp.MustCompile(`(?m)^[^#\n]*:\s*\??(\[(string)?\]\??)*any\b`)

// knownLimit says why the library refuses the description of @name, if
// that is expected.
func knownLimit(name, desc string) string {
	why := beyondParser[name]
	if why != "" && anyType.MatchString(desc) {
		return why
	}
	return ""
}

// The interfaces the core itself serves: GetInfo must list them.
var coreInterfaces = []string{"org.varlink.service", "org.kernel.varlink"}

// The typed replies

type serviceInfo struct {
	Vendor     string   `json:"vendor"`
	Product    string   `json:"product"`
	Version    string   `json:"version"`
	URL        string   `json:"url"`
	Interfaces []string `json:"interfaces"`
}

type interfaceDescription struct {
	Description string `json:"description"`
}

// org.kernel.system.Describe
type systemDescription struct {
	Sysname         string  `json:"sysname"`
	Nodename        string  `json:"nodename"`
	Release         string  `json:"release"`
	Version         string  `json:"version"`
	Machine         string  `json:"machine"`
	Domainname      string  `json:"domainname"`
	Uptime          float64 `json:"uptime"`
	BootTime        int64   `json:"boot_time"`
	MemoryTotal     uint64  `json:"memory_total"`
	MemoryFree      uint64  `json:"memory_free"`
	MemoryAvailable uint64  `json:"memory_available"`
	MemoryBuffers   uint64  `json:"memory_buffers"`
	MemoryCached    uint64  `json:"memory_cached"`
	MemoryShared    uint64  `json:"memory_shared"`
	SwapTotal       uint64  `json:"swap_total"`
	SwapFree        uint64  `json:"swap_free"`
	Load1           float64 `json:"load_1"`
	Load5           float64 `json:"load_5"`
	Load15          float64 `json:"load_15"`
	TasksRunning    int64   `json:"tasks_running"`
	TasksTotal      int64   `json:"tasks_total"`
	CpusOnline      int64   `json:"cpus_online"`
	CpusPresent     int64   `json:"cpus_present"`
	CpusPossible    int64   `json:"cpus_possible"`
}

// org.kernel.system.GetCommandLine
type commandLine struct {
	Cmdline   string   `json:"cmdline"`
	Arguments []string `json:"arguments"`
}

// org.kernel.memory.Get
type memory struct {
	Total     uint64            `json:"total"`
	Free      uint64            `json:"free"`
	Available uint64            `json:"available"`
	Fields    map[string]uint64 `json:"fields"`
}

// org.kernel.memory.GetStatistics
type vmstat struct {
	Counters map[string]uint64 `json:"counters"`
}

// org.kernel.pressure's Stall, and Get's reply
type stall struct {
	Avg10  float64 `json:"avg10"`
	Avg60  float64 `json:"avg60"`
	Avg300 float64 `json:"avg300"`
	Total  uint64  `json:"total"`
}

type pressure struct {
	Some *stall `json:"some"`
	Full *stall `json:"full"`
}

// org.kernel.process.GetProcess
type process struct {
	Pid       int64  `json:"pid"`
	Ppid      int64  `json:"ppid"`
	Comm      string `json:"comm"`
	State     string `json:"state"`
	UID       int64  `json:"uid"`
	Euid      int64  `json:"euid"`
	Gid       int64  `json:"gid"`
	Egid      int64  `json:"egid"`
	Threads   int64  `json:"threads"`
	StartTime int64  `json:"start_time"`
	Rss       int64  `json:"rss"`
}

// org.kernel.sysctl.Get
type sysctlValue struct {
	Value string `json:"value"`
}

// org.kernel.network's Link
type link struct {
	Name      string `json:"name"`
	Index     int64  `json:"index"`
	Mtu       int64  `json:"mtu"`
	Up        bool   `json:"up"`
	Running   bool   `json:"running"`
	Operstate string `json:"operstate"`
	Mac       string `json:"mac"`
	RxBytes   uint64 `json:"rx_bytes"`
	TxBytes   uint64 `json:"tx_bytes"`
	RxPackets uint64 `json:"rx_packets"`
	TxPackets uint64 `json:"tx_packets"`
	RxErrors  uint64 `json:"rx_errors"`
	TxErrors  uint64 `json:"tx_errors"`
	RxDropped uint64 `json:"rx_dropped"`
	TxDropped uint64 `json:"tx_dropped"`
}

type links struct {
	Links []link `json:"links"`
}

type oneLink struct {
	Link link `json:"link"`
}

type linkEvent struct {
	Event string `json:"event"`
	Link  link   `json:"link"`
}

// The loopback link: index 1 in the initial network namespace, and up
func isLo(l link) bool {
	return l.Name == "lo" && l.Index == 1 && l.Up && l.Mtu > 0
}

// org.kernel.example.Hello
type greeting struct {
	Greeting string `json:"greeting"`
	Release  string `json:"release"`
}

// org.kernel.varlink.test.Types
type point struct {
	X int64 `json:"x"`
	Y int64 `json:"y"`
}

type everything struct {
	Bool   bool                       `json:"bool"`
	Int    int64                      `json:"int"`
	Float  float64                    `json:"float"`
	String string                     `json:"string"`
	Object map[string]json.RawMessage `json:"object"`
	Any    json.RawMessage            `json:"any"`
	Enum   string                     `json:"enum"`
	Color  string                     `json:"color"`
	Struct struct {
		Point point `json:"point"`
		Inner struct {
			Label string `json:"label"`
			Flag  *bool  `json:"flag"`
		} `json:"inner"`
	} `json:"struct"`
	Array  []json.Number       `json:"array"`
	Map    map[string]string   `json:"map"`
	Set    map[string]struct{} `json:"set"`
	Maybe  *string             `json:"maybe"`
	Nested []map[string]*point `json:"nested"`
}

type types struct {
	Everything everything `json:"everything"`
}

// org.kernel.varlink.GetStatistics: the counters of
// /sys/module/varlink/statistics/
type statistics struct {
	Connections      int64 `json:"connections"`
	ConnectionsTotal int64 `json:"connections_total"`
	Refused          int64 `json:"refused"`
	Calls            int64 `json:"calls"`
	CallsInline      int64 `json:"calls_inline"`
	Errors           int64 `json:"errors"`
	ProtocolErrors   int64 `json:"protocol_errors"`
	BytesIn          int64 `json:"bytes_in"`
	BytesOut         int64 `json:"bytes_out"`
	Sends            int64 `json:"sends"`
	Allocations      int64 `json:"allocations"`
}

// org.kernel.varlink.GetLimits: the parameters of varlink.ko
type limits struct {
	SocketName           string `json:"socket_name"`
	MaxMessageSize       int64  `json:"max_message_size"`
	MaxOutput            int64  `json:"max_output"`
	MaxConnections       int64  `json:"max_connections"`
	MaxConnectionsPerUID int64  `json:"max_connections_per_uid"`
	MaxConnsPerNetns     int64  `json:"max_connections_per_netns"`
	MaxStreams           int64  `json:"max_streams"`
	MaxStreamsPerUser    int64  `json:"max_streams_per_user"`
	MaxStreamsPerCont    int64  `json:"max_streams_per_container"`
	MaxWorkersPerUser    int64  `json:"max_workers_per_user"`
	MaxWorkersPerCont    int64  `json:"max_workers_per_container"`
	InitNetOnly          bool   `json:"init_net_only"`
	MaxDepth             int64  `json:"max_depth"`
	MaxTokens            int64  `json:"max_tokens"`
	FastPath             bool   `json:"fast_path"`
}

// What varlink.ko shows in sysfs, when it is the server (the VM)
const sysfsModule = "/sys/module/varlink"

// sysfsFiles reads the files of a directory of varlink.ko in sysfs.
func sysfsFiles(dir string) (map[string]string, error) {
	names, err := filepath.Glob(filepath.Join(sysfsModule, dir, "*"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("nothing in %s/%s: %v", sysfsModule, dir, err)
	}
	files := map[string]string{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		files[filepath.Base(name)] = strings.TrimSuffix(string(b), "\n")
	}
	return files, nil
}

// jsonFields gives the members of a reply as a JSON object, as Go values.
func jsonFields(raw json.RawMessage) (map[string]interface{}, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]interface{}
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// parseInts reads decimal integers.
func parseInts(texts ...string) ([]int64, error) {
	var v []int64
	for _, text := range texts {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, err
		}
		v = append(v, n)
	}
	return v, nil
}

// checkStatistics: the same counters as sysfs, each read in sysfs before
// the call (@before) at most and after it at least; connections is not a
// counter (connections closing may still count), it is at least ours.
func checkStatistics(raw json.RawMessage, before map[string]string) error {
	var s statistics
	if err := decodeStrict(raw, &s); err != nil {
		return err
	}
	if s.Connections < 1 || s.Calls < 1 || s.BytesIn <= 0 || s.BytesOut <= 0 {
		return fmt.Errorf("unlikely values: %+v", s)
	}
	if before == nil {
		diag("%s: not here, the counters are not compared", sysfsModule)
		return nil
	}
	after, err := sysfsFiles("statistics")
	if err != nil {
		return err
	}
	m, err := jsonFields(raw)
	if err != nil {
		return err
	}
	if len(m) != len(after) {
		return fmt.Errorf("%d counters, %d in sysfs: %s", len(m), len(after), raw)
	}
	for name, v := range m {
		num, _ := v.(json.Number)
		x, err := parseInts(string(num), before[name], after[name])
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		n, lo, hi := x[0], x[1], x[2]
		if name != "connections" && (n < lo || n > hi) {
			return fmt.Errorf("%s is %d, not in %d..%d as sysfs says", name, n, lo, hi)
		}
	}
	return nil
}

// checkLimits: the same parameters as sysfs, exactly.
func checkLimits(raw json.RawMessage, address string) error {
	var l limits
	if err := decodeStrict(raw, &l); err != nil {
		return err
	}
	if l.MaxMessageSize < 64 || l.MaxOutput < l.MaxMessageSize ||
		l.MaxConnections < 1 || l.MaxConnectionsPerUID < 1 ||
		l.MaxWorkersPerUser < 1 ||
		l.MaxWorkersPerCont < l.MaxWorkersPerUser ||
		l.MaxDepth < 1 || l.MaxTokens < 16 {
		return fmt.Errorf("unlikely values: %+v", l)
	}
	// the name this client connected to
	if name := strings.TrimPrefix(address, "unix:@"); name != address &&
		l.SocketName != name {
		return fmt.Errorf("socket_name is %q, connected to %s", l.SocketName, address)
	}
	params, err := sysfsFiles("parameters")
	if err != nil {
		diag("%s: not here, the limits are not compared", sysfsModule)
		return nil
	}
	m, err := jsonFields(raw)
	if err != nil {
		return err
	}
	if len(m) != len(params) {
		return fmt.Errorf("%d limits, %d parameters in sysfs: %s", len(m), len(params), raw)
	}
	for name, v := range m {
		var got string
		switch x := v.(type) {
		case bool:
			got = "N"
			if x {
				got = "Y"
			}
		case json.Number:
			got = string(x)
		case string:
			got = x
		}
		if p, ok := params[name]; !ok || got != p {
			return fmt.Errorf("%s is %v, sysfs says %q", name, v, p)
		}
	}
	return nil
}

type whoAmI struct {
	UID      int64 `json:"uid"`
	Pid      int64 `json:"pid"`
	SysAdmin bool  `json:"sys_admin"`
}

type status struct {
	Monitors int64 `json:"monitors"`
	Deferred int64 `json:"deferred"`
	Counter  int64 `json:"counter"`
	Replays  int64 `json:"replays"`
}

// A read method, its arguments, and what its reply must say.
type reader struct {
	iface, method string
	params        interface{}
	check         func(raw json.RawMessage) error
}

func expect(cond bool, format string, args ...interface{}) error {
	if cond {
		return nil
	}
	return fmt.Errorf(format, args...)
}

func readers(release, address string) []reader {
	pid := int64(os.Getpid())
	stats, _ := sysfsFiles("statistics") // before the call, if there
	rs := []reader{
		{"org.kernel.varlink", "GetStatistics", nil, func(raw json.RawMessage) error {
			return checkStatistics(raw, stats)
		}},
		{"org.kernel.varlink", "GetLimits", nil, func(raw json.RawMessage) error {
			return checkLimits(raw, address)
		}},
		{"org.kernel.system", "Describe", nil, func(raw json.RawMessage) error {
			var s systemDescription
			if err := decodeStrict(raw, &s); err != nil {
				return err
			}
			return expect(s.Sysname == "Linux" && s.Release == release &&
				s.Machine != "" && s.Uptime > 0 && s.MemoryTotal > 0 &&
				s.MemoryFree <= s.MemoryTotal && s.TasksTotal > 0 &&
				s.CpusOnline >= 1 && s.CpusOnline <= s.CpusPossible,
				"unlikely values: %+v", s)
		}},
		{"org.kernel.system", "GetCommandLine", nil, func(raw json.RawMessage) error {
			var c commandLine
			if err := decodeStrict(raw, &c); err != nil {
				return err
			}
			return expect(c.Cmdline != "" && len(c.Arguments) > 0, "%+v", c)
		}},
		{"org.kernel.memory", "Get", nil, func(raw json.RawMessage) error {
			var m memory
			if err := decodeStrict(raw, &m); err != nil {
				return err
			}
			return expect(m.Total > 0 && m.Total == m.Fields["MemTotal"] &&
				m.Free <= m.Total && m.Available <= m.Total,
				"unlikely values: %+v", m)
		}},
		{"org.kernel.memory", "GetStatistics", nil, func(raw json.RawMessage) error {
			var v vmstat
			if err := decodeStrict(raw, &v); err != nil {
				return err
			}
			// pgfault and the other events need VM_EVENT_COUNTERS,
			// which the debug kernels lack; the page counts are always there
			return expect(v.Counters["nr_free_pages"] > 0, "no nr_free_pages: %+v", v)
		}},
		{"org.kernel.process", "GetProcess", map[string]int64{"pid": pid},
			func(raw json.RawMessage) error {
				var p process
				if err := decodeStrict(raw, &p); err != nil {
					return err
				}
				comm := "varlink-go-interop"[:15]
				return expect(p.Pid == pid && p.Ppid == int64(os.Getppid()) &&
					p.Comm == comm &&
					p.UID == int64(os.Getuid()) && p.Euid == int64(os.Geteuid()) &&
					p.Threads >= 1 && p.Rss > 0,
					"not this process (pid %d, comm %q): %+v", pid, comm, p)
			}},
		{"org.kernel.sysctl", "Get", map[string]string{"name": "kernel.random.boot_id"},
			func(raw json.RawMessage) error {
				var v sysctlValue
				if err := decodeStrict(raw, &v); err != nil {
					return err
				}
				want, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
				if err != nil {
					return err
				}
				return expect(v.Value == strings.TrimSuffix(string(want), "\n"),
					"not /proc/sys/kernel/random/boot_id %q: %+v", want, v)
			}},
		{"org.kernel.network", "ListLinks", nil, func(raw json.RawMessage) error {
			var l links
			if err := decodeStrict(raw, &l); err != nil {
				return err
			}
			for _, k := range l.Links {
				if isLo(k) {
					return nil
				}
			}
			return fmt.Errorf("no lo (index 1, up): %+v", l)
		}},
		{"org.kernel.network", "GetLink", map[string]string{"name": "lo"},
			func(raw json.RawMessage) error {
				var l oneLink
				if err := decodeStrict(raw, &l); err != nil {
					return err
				}
				return expect(isLo(l.Link), "not lo (index 1, up): %+v", l)
			}},
		{"org.kernel.network", "GetLink", map[string]int64{"index": 1},
			func(raw json.RawMessage) error {
				var l oneLink
				if err := decodeStrict(raw, &l); err != nil {
					return err
				}
				return expect(isLo(l.Link), "not lo (index 1, up): %+v", l)
			}},
		{"org.kernel.example", "Hello", map[string]string{"name": "Go"},
			func(raw json.RawMessage) error {
				var g greeting
				if err := decodeStrict(raw, &g); err != nil {
					return err
				}
				return expect(g.Greeting == "Hello, Go!" && g.Release == release,
					"%+v", g)
			}},
		{"org.kernel.varlink.test", "Types", nil, func(raw json.RawMessage) error {
			var t types
			if err := decodeStrict(raw, &t); err != nil {
				return err
			}
			e := t.Everything
			_, x := e.Set["x"]
			return expect(e.Bool && e.Int == -9223372036854775808 &&
				e.Float == -3.14159 && e.Enum == "two" && e.Color == "blue" &&
				e.Struct.Point == point{-1, 2} && e.Struct.Inner.Label == "in" &&
				e.Struct.Inner.Flag == nil && len(e.Array) == 3 &&
				e.Array[2] == "18446744073709551615" && e.Map["a"] == "1" &&
				x && len(e.Set) == 1 && e.Maybe == nil && len(e.Nested) == 2 &&
				*e.Nested[0]["p"] == point{3, 4} && e.Nested[0]["q"] == nil,
				"%+v", e)
		}},
		{"org.kernel.varlink.test", "WhoAmI", nil, func(raw json.RawMessage) error {
			var w whoAmI
			if err := decodeStrict(raw, &w); err != nil {
				return err
			}
			return expect(w.UID == int64(os.Geteuid()) && w.Pid == pid &&
				w.SysAdmin == (os.Geteuid() == 0), "%+v", w)
		}},
		{"org.kernel.varlink.test", "Status", nil, func(raw json.RawMessage) error {
			var s status
			if err := decodeStrict(raw, &s); err != nil {
				return err
			}
			return expect(s.Monitors >= 0 && s.Deferred >= 0, "%+v", s)
		}},
		{"org.kernel.varlink.test", "Ping", nil, func(raw json.RawMessage) error {
			var p struct{}
			return decodeStrict(raw, &p)
		}},
	}
	// where the kernel has pressure figures (PSI on)
	if _, err := os.Stat("/proc/pressure/memory"); err == nil {
		rs = append(rs, reader{"org.kernel.pressure", "Get",
			map[string]string{"resource": "memory"},
			func(raw json.RawMessage) error {
				var p pressure
				if err := decodeStrict(raw, &p); err != nil {
					return err
				}
				return expect(p.Some != nil && p.Full != nil &&
					p.Some.Avg10 >= 0 && p.Some.Avg10 <= 100, "%+v", p)
			}})
	}
	return rs
}

// Whether a method reads only and takes no argument: worth a call.
func plainRead(m *idl.Method) bool {
	for _, p := range []string{"Get", "List", "Describe"} {
		if strings.HasPrefix(m.Name, p) {
			return len(m.In.Fields) == 0
		}
	}
	return false
}

func main() {
	address := flag.String("varlink", "unix:@org.kernel.varlink", "the server's address")
	flag.Parse()
	t := &tap{}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	defer func() {
		fmt.Printf("TAP version 13\n1..%d\n", t.n)
		os.Stdout.Write(body.Bytes())
		if t.failed > 0 {
			os.Exit(1)
		}
	}()

	c, err := varlink.NewConnection(ctx, *address)
	if !t.result(err, "connect to %s", *address) {
		return
	}
	defer c.Close()

	// GetInfo, with the library's own call, then typed
	var vendor, product, version, url string
	var names []string
	err = c.GetInfo(ctx, &vendor, &product, &version, &url, &names)
	if err == nil {
		err = expect(vendor != "" && product != "" && version != "" &&
			len(names) > 0, "empty fields")
	}
	if !t.result(err, "GetInfo: %s, %s %s, %d interfaces", vendor, product,
		version, len(names)) {
		return
	}
	raw, err := call(ctx, c, "org.varlink.service.GetInfo", nil)
	var info serviceInfo
	if err == nil {
		err = decodeStrict(raw, &info)
	}
	if err == nil {
		err = expect(info.Version == version && len(info.Interfaces) == len(names),
			"differs from the first GetInfo: %+v", info)
	}
	t.result(err, "GetInfo decoded strictly")
	diag("interfaces: %s", strings.Join(names, " "))
	served := map[string]bool{}
	for _, name := range names {
		served[name] = true
	}
	for _, name := range coreInterfaces {
		t.result(expect(served[name], "not in %v", names),
			"GetInfo lists %s, which the core serves", name)
	}

	// Every description, parsed
	parsed := map[string]*idl.IDL{}
	beyond := map[string]bool{} // served, but beyond the Go parser
	for _, name := range names {
		raw, err := call(ctx, c, "org.varlink.service.GetInterfaceDescription",
			map[string]string{"interface": name})
		var d interfaceDescription
		if err == nil {
			err = decodeStrict(raw, &d)
		}
		if !t.result(err, "GetInterfaceDescription %s", name) {
			continue
		}
		desc, err := c.GetInterfaceDescription(ctx, name)
		if err == nil {
			err = expect(desc == d.Description, "the library's call got another text")
		}
		if err != nil {
			t.result(err, "GetInterfaceDescription %s with the library's call", name)
			continue
		}
		p, err := idl.New(desc)
		if err != nil {
			if why := knownLimit(name, desc); why != "" {
				t.result(nil, "%s: refused by the Go IDL parser, as expected: %s", name, why)
				beyond[name] = true
				continue
			}
			t.result(fmt.Errorf("%v\n%s", err, desc), "%s: parsed by the Go IDL parser", name)
			continue
		}
		if why := beyondParser[name]; why != "" {
			diag("%s parses now, though %s: drop it from beyondParser", name, why)
		}
		err = expect(p.Name == name, "the IDL names %s", p.Name)
		t.result(err, "%s: parsed by the Go IDL parser: %d types, %d methods, %d errors",
			name, len(p.Aliases), len(p.Methods), len(p.Errors))
		parsed[name] = p
	}

	// org.varlink.service's own replies conform to its IDL
	if p := parsed["org.varlink.service"]; p != nil {
		raw, err := call(ctx, c, "org.varlink.service.GetInterfaceDescription",
			map[string]string{"interface": "org.varlink.service"})
		if err == nil {
			err = conformsRaw(raw, p, "GetInterfaceDescription")
		}
		t.result(err, "org.varlink.service.GetInterfaceDescription conforms to its IDL")
		raw, err = call(ctx, c, "org.varlink.service.GetInfo", nil)
		if err == nil {
			err = conformsRaw(raw, p, "GetInfo")
		}
		t.result(err, "org.varlink.service.GetInfo conforms to its IDL")
	}

	// The read methods with a Go struct
	typed := map[string]bool{}
	typed["org.kernel.network.MonitorLinks"] = true
	// the kernel's release, which Describe and Hello report; GetInfo's
	// version is the project's when it is built out of tree
	release, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		t.result(err, "/proc/sys/kernel/osrelease")
		return
	}
	for _, r := range readers(strings.TrimSpace(string(release)), *address) {
		name := r.iface + "." + r.method
		typed[name] = true
		p := parsed[r.iface]
		if !served[r.iface] {
			diag("%s: not served", r.iface)
			continue
		}
		if p == nil && !beyond[r.iface] {
			continue // its description failed above
		}
		label := name
		if r.params != nil {
			b, _ := json.Marshal(r.params)
			label += string(b)
		}
		raw, err := call(ctx, c, name, r.params)
		if err == nil && p != nil {
			err = conformsRaw(raw, p, r.method)
		}
		if err == nil {
			err = r.check(raw)
		}
		if p != nil {
			t.result(err, "%s: conforms to the IDL, decoded into a Go struct", label)
		} else {
			t.result(err, "%s: decoded into a Go struct (the IDL is beyond the Go parser)", label)
		}
	}

	// Streams: org.kernel.example.Count and org.kernel.network.MonitorLinks
	if parsed["org.kernel.example"] != nil {
		t.result(countStream(ctx, c), "org.kernel.example.Count with more: 1 to 5")
	}
	if p := parsed["org.kernel.network"]; p != nil {
		n, err := monitorLinks(ctx, *address, p)
		t.result(err, "org.kernel.network.MonitorLinks with more: %d current links, "+
			"each conforms to the IDL, decoded into a Go struct", n)
	}

	// The other read methods of org.kernel.*, against their IDL only
	var rest []string
	for name, p := range parsed {
		if strings.HasPrefix(name, "org.kernel.") {
			for _, m := range p.Methods {
				if !typed[name+"."+m.Name] && plainRead(m) {
					rest = append(rest, name+"."+m.Name)
				}
			}
		}
	}
	sort.Strings(rest)
	for _, full := range rest {
		dot := strings.LastIndex(full, ".")
		raw, err := call(ctx, c, full, nil)
		if err == nil {
			err = conformsRaw(raw, parsed[full[:dot]], full[dot+1:])
		}
		t.result(err, "%s: conforms to the IDL (no Go struct here yet)", full)
	}
}

// countStream reads the replies of org.kernel.example.Count(n: 5) with "more".
func countStream(ctx context.Context, c *varlink.Connection) error {
	receive, err := c.Send(ctx, "org.kernel.example.Count",
		map[string]int64{"n": 5}, varlink.More)
	if err != nil {
		return err
	}
	for want := int64(1); ; want++ {
		var raw json.RawMessage
		flags, err := receive(ctx, &raw)
		if err != nil {
			return describeError(err)
		}
		var r struct {
			I int64 `json:"i"`
		}
		if err := decodeStrict(raw, &r); err != nil {
			return err
		}
		if r.I != want {
			return fmt.Errorf("reply %d says %d", want, r.I)
		}
		last := flags&varlink.Continues == 0
		if last != (want == 5) {
			return fmt.Errorf("reply %d: continues is %v", want, !last)
		}
		if last {
			return nil
		}
	}
}

// monitorLinks reads the first replies of org.kernel.network.MonitorLinks,
// one per link ListLinks gives, on a connection of its own: the stream
// never ends, the connection is closed after them.
func monitorLinks(ctx context.Context, address string, p *idl.IDL) (int, error) {
	c, err := varlink.NewConnection(ctx, address)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	raw, err := call(ctx, c, "org.kernel.network.ListLinks", nil)
	var l links
	if err == nil {
		err = decodeStrict(raw, &l)
	}
	if err != nil {
		return 0, err
	}
	receive, err := c.Send(ctx, "org.kernel.network.MonitorLinks", nil, varlink.More)
	if err != nil {
		return 0, err
	}
	want := map[string]int64{}
	for _, k := range l.Links {
		want[k.Name] = k.Index
	}
	for i := range l.Links {
		var raw json.RawMessage
		flags, err := receive(ctx, &raw)
		if err != nil {
			return i, describeError(err)
		}
		if flags&varlink.Continues == 0 {
			return i, fmt.Errorf("reply %d has no \"continues\"", i+1)
		}
		if err := conformsRaw(raw, p, "MonitorLinks"); err != nil {
			return i, err
		}
		var e linkEvent
		if err := decodeStrict(raw, &e); err != nil {
			return i, err
		}
		index, ok := want[e.Link.Name]
		if e.Event != "current" || !ok || e.Link.Index != index {
			return i, fmt.Errorf("reply %d: %+v, not one of the current links %v",
				i+1, e, want)
		}
		delete(want, e.Link.Name)
	}
	return len(l.Links), nil
}
