package webhook

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

func TestIsPublic(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.255.0.9", "::1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "fe80::1", "fe80::1%eth0", "0.0.0.0", "0.1.2.3", "::", "100.64.0.1",
		"100.127.255.255", "224.0.0.1", "ff02::1", "255.255.255.255", "240.0.0.1", "fc00::1",
		"fd12:3456::1", "192.0.2.1", "198.18.0.1", "2001:db8::1", "fec0::1",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
		"64:ff9b::7f00:1", "64:ff9b::a00:1", "2002:7f00:1::1", "2002:c0a8:101::1", "2001::1",
	}
	for _, s := range refused {
		if IsPublic(netip.MustParseAddr(s)) {
			t.Errorf("IsPublic(%s) = true, want false", s)
		}
	}
	public := []string{
		"8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.32.0.1", "193.0.0.1",
		"2606:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
	}
	for _, s := range public {
		if !IsPublic(netip.MustParseAddr(s)) {
			t.Errorf("IsPublic(%s) = false, want true", s)
		}
	}
	if IsPublic(netip.Addr{}) {
		t.Error("IsPublic(zero Addr) = true")
	}
}

// The dialer's Control sees the resolved address about to be dialled, in the
// form "ip:port".
func TestRefuseNonPublic(t *testing.T) {
	for _, address := range []string{
		"127.0.0.1:443", "[::1]:443", "10.0.0.1:443", "192.168.0.1:443", "172.16.0.1:443",
		"169.254.169.254:80", "[::ffff:127.0.0.1]:443", "[fe80::1%eth0]:443", "0.0.0.0:443", "not-an-address",
	} {
		if err := refuseNonPublic("tcp", address, nil); !errors.Is(err, ErrNotPublic) {
			t.Errorf("refuseNonPublic(%s) = %v, want ErrNotPublic", address, err)
		}
	}
	for _, address := range []string{"8.8.8.8:443", "[2606:4700::1111]:443"} {
		if err := refuseNonPublic("tcp", address, nil); err != nil {
			t.Errorf("refuseNonPublic(%s) = %v, want nil", address, err)
		}
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url          string
		allowPrivate bool
		wantErr      string
	}{
		{"https://hooks.example.com/stockroom", false, ""},
		{"https://8.8.8.8/hook", false, ""},
		{"https://[2606:4700::1111]:8443/hook", false, ""},
		{"https://receiver.internal/hook", false, ""}, // a name: judged at connect time
		{"http://hooks.example.com/stockroom", false, "https://"},
		{"ftp://hooks.example.com/", false, "https://"},
		{"hooks.example.com/stockroom", false, "https://"},
		{"https:///nohost", false, "no host"},
		{"https://127.0.0.1/hook", false, "not public"},
		{"https://[::1]/hook", false, "not public"},
		{"https://10.0.0.7/hook", false, "not public"},
		{"https://169.254.169.254/latest/meta-data", false, "not public"},
		{"https://[::ffff:127.0.0.1]/hook", false, "not public"},
		{"https://[fe80::1%25eth0]/hook", false, "not public"},
		{"https://0.0.0.0/hook", false, "not public"},
		{"http://127.0.0.1:8080/hook", true, ""},
		{"https://10.0.0.7/hook", true, ""},
		{"ftp://10.0.0.7/", true, "https://"},
		{"http://%zz", true, "not a URL"},
	}
	for _, tt := range tests {
		err := CheckURL(tt.url, tt.allowPrivate)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("CheckURL(%q, %v) = %v, want %q", tt.url, tt.allowPrivate, err, tt.wantErr)
		}
	}
}

func TestCheckResolvedRefusesNameOfLoopback(t *testing.T) {
	ctx := context.Background()
	if err := CheckResolved(ctx, "https://localhost/hook", false); !errors.Is(err, ErrNotPublic) {
		t.Fatalf("CheckResolved(localhost) = %v, want ErrNotPublic", err)
	}
	if err := CheckResolved(ctx, "https://localhost/hook", true); err != nil {
		t.Fatalf("CheckResolved(localhost, allowPrivate) = %v", err)
	}
	if err := CheckResolved(ctx, "https://10.0.0.1/hook", false); !errors.Is(err, ErrNotPublic) {
		t.Fatalf("CheckResolved(10.0.0.1) = %v, want ErrNotPublic", err)
	}
}

// The client refuses at connect time, whatever the URL check let through: a
// literal loopback address, and an IPv6 one where the host has IPv6.
func TestClientRefusesLoopbackAtConnect(t *testing.T) {
	var hits atomic.Int32
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	servers := []*httptest.Server{httptest.NewServer(handler)}
	if ln, err := net.Listen("tcp", "[::1]:0"); err == nil {
		v6 := &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
		v6.Start()
		servers = append(servers, v6)
	}
	for _, srv := range servers {
		defer srv.Close()
		_, err := NewClient(false).Get(srv.URL)
		if !errors.Is(err, ErrNotPublic) {
			t.Errorf("GET %s through the guard: %v, want ErrNotPublic", srv.URL, err)
		}
		resp, err := NewClient(true).Get(srv.URL)
		if err != nil {
			t.Fatalf("GET %s with private addresses allowed: %v", srv.URL, err)
		}
		resp.Body.Close()
	}
	if int(hits.Load()) != len(servers) {
		t.Fatalf("receivers reached %d times, want %d (only with private addresses allowed)", hits.Load(), len(servers))
	}
}
