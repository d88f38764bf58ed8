// Package webhook delivers events to subscribers' URLs (contract §12): the
// guard that keeps deliveries away from the server's own network, one signed
// POST with its outcome, the retry schedule and the rule that disables a
// failing subscription. It keeps no state; the caller (the /Webhook endpoints
// and the delivery worker) keeps subscriptions and attempts in the database.
package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// ErrNotPublic is wrapped by every refusal of the address guard, for
// errors.Is: a URL or a connection that would reach an address which is not
// public unicast, while private addresses are not allowed.
var ErrNotPublic = errors.New("address is not public")

// nonPublic lists the ranges, beyond what netip classifies itself (loopback,
// private, link-local, multicast, unspecified), that no webhook may reach:
// they are either someone's internal network or not routable on the Internet.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"; 0.0.0.0 reaches the host itself
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT, often a cloud's internal network
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation (TEST-NET-1)
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation (TEST-NET-2)
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation (TEST-NET-3)
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	netip.MustParsePrefix("::/96"),           // IPv4-compatible IPv6 (deprecated), :: and ::1
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001::/32"),       // Teredo, which tunnels to an IPv4 address
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

// Prefixes of IPv6 whose addresses carry an IPv4 address that a gateway
// reaches: such an address is as public as the IPv4 address inside it.
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96") // the IPv4 address in the last 32 bits
	sixTo4 = netip.MustParsePrefix("2002::/16")    // the IPv4 address in bits 16 to 48
)

// IsPublic reports whether a webhook may connect to addr: a unicast address
// routable on the Internet, not one of the server's own network. An
// IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it
// maps, and a NAT64 or 6to4 address as the IPv4 address it carries, so that no
// spelling of an internal address gets through.
func IsPublic(addr netip.Addr) bool {
	addr = addr.WithZone("").Unmap()
	if !addr.IsValid() || addr.IsLoopback() || addr.IsPrivate() || addr.IsUnspecified() ||
		addr.IsLinkLocalUnicast() || addr.IsMulticast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(addr) {
			return false
		}
	}
	a16 := addr.As16()
	switch {
	case nat64.Contains(addr):
		return IsPublic(netip.AddrFrom4([4]byte(a16[12:16])))
	case sixTo4.Contains(addr):
		return IsPublic(netip.AddrFrom4([4]byte(a16[2:6])))
	}
	return true
}

// CheckURL refuses a subscription URL a delivery must not go to: one that is
// not absolute https (http too when allowPrivate), has no host, or names a
// host by an address that is not public (unless allowPrivate). A host name is
// judged when a delivery connects, by the client of NewClient, because what it
// resolves to can change at any time; CheckResolved judges it once more when
// the subscription is saved, to refuse an obvious mistake early.
func CheckURL(raw string, allowPrivate bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("url is not a URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowPrivate:
	default:
		return errors.New("url must start with https://")
	}
	if u.Hostname() == "" {
		return errors.New("url has no host")
	}
	if addr, err := netip.ParseAddr(u.Hostname()); err == nil && !allowPrivate && !IsPublic(addr) {
		return fmt.Errorf("url names %s: %w", addr, ErrNotPublic)
	}
	return nil
}

// CheckResolved is CheckURL, and then, unless allowPrivate, refuses a host
// name that resolves to any address that is not public. It is for saving a
// subscription, where "localhost" or a name of the internal network deserves
// an immediate refusal rather than a log of failed deliveries; deliveries
// themselves rely on the connect-time guard.
func CheckResolved(ctx context.Context, raw string, allowPrivate bool) error {
	if err := CheckURL(raw, allowPrivate); err != nil || allowPrivate {
		return err
	}
	u, _ := url.Parse(raw) // CheckURL parsed it
	if _, err := netip.ParseAddr(u.Hostname()); err == nil {
		return nil // CheckURL judged the address
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return fmt.Errorf("url's host %s does not resolve", u.Hostname())
	}
	for _, addr := range addrs {
		if !IsPublic(addr) {
			return fmt.Errorf("url's host %s resolves to %s: %w", u.Hostname(), addr, ErrNotPublic)
		}
	}
	return nil
}

// NewClient returns the HTTP client deliveries are made with. Unless
// allowPrivate, its dialer refuses, at the moment of connecting, every address
// IsPublic refuses: the check is made on the address actually dialled, after
// the name was resolved, so a name cannot resolve to a public address for a
// check and to an internal one for the connection. It follows no redirect
// (the 3xx is the answer, and a failure), uses no proxy from the environment
// (a proxy would connect for it, past the guard), and keeps connections open
// for the next delivery to the same receiver.
func NewClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = refuseNonPublic
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{
		Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// refuseNonPublic is a net.Dialer's Control: it runs after the name is
// resolved and before each connect, with the address about to be dialled.
func refuseNonPublic(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("connection to %q refused: %w", address, ErrNotPublic)
	}
	if !IsPublic(ap.Addr()) {
		return fmt.Errorf("connection to %s refused: %w", ap.Addr(), ErrNotPublic)
	}
	return nil
}
