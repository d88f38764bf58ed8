package sdktest_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/service"
)

// The SDK's webhook methods against a real server delivering to a real
// receiver on loopback, which checks each delivery with VerifyWebhook.
func TestWebhooks(t *testing.T) {
	s := newServer(t, serverConfig{webhooks: service.WebhookOptions{AllowPrivate: true, Poll: 50 * time.Millisecond}})
	c := s.admin(t)
	var (
		mu       sync.Mutex
		secret   string
		verified []string
	)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if err := client.VerifyWebhook(secret, r.Header.Get(client.WebhookSignatureHeader), body); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		verified = append(verified, r.Header.Get("Stockroom-Event-Type"))
	}))
	t.Cleanup(rcv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.svc.RunWebhooks(ctx, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	t.Cleanup(func() { cancel(); <-done })

	wh, err := c.CreateWebhook(ctx, client.WebhookInput{Name: new("items"), URL: new(rcv.URL), Events: new("inventory.received"), PayloadMode: new(int64(2))})
	if err != nil || wh.Secret == "" || wh.Events != "inventory.received" {
		t.Fatalf("CreateWebhook = %+v, %v", wh, err)
	}
	mu.Lock()
	secret = wh.Secret
	mu.Unlock()
	sku := unique("HOOK")
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: sku}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: sku, Units: units(t, "1"), WID: 1, ReasonCode: 1}); err != nil {
		t.Fatal(err)
	}
	d, err := c.TestWebhook(ctx, wh.Rec)
	if err != nil || !d.Success || d.Type != stockroom.EventWebhookTest {
		t.Fatalf("TestWebhook = %+v, %v", d, err)
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		n := len(verified)
		mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("receiver verified %d deliveries, want the receipt's and the test's", n)
		}
	}
	// The worker writes its attempts to the log with its position, just
	// after the receiver has answered.
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		log, err := c.WebhookLog(ctx, wh.Rec, client.ListOptions{})
		if err == nil && log.TotalCount == 2 {
			break
		}
		if err != nil || time.Now().After(end) {
			t.Fatalf("WebhookLog = %+v, %v; want the two attempts", log, err)
		}
	}
	rotated, err := c.UpdateWebhook(ctx, wh.Rec, client.WebhookInput{RotateSecret: new(true), Active: new(false)})
	if err != nil || rotated.Secret == "" || rotated.Secret == wh.Secret || rotated.DisableType != stockroom.WebhookDisabledByHand {
		t.Fatalf("UpdateWebhook = %+v, %v", rotated, err)
	}
	for w, err := range c.Webhooks(ctx) {
		if err != nil || w.Rec != wh.Rec || w.Secret != "" {
			t.Fatalf("Webhooks yields %+v, %v", w, err)
		}
	}
	if err := c.DeleteWebhook(ctx, wh.Rec); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetWebhook(ctx, wh.Rec); !isCode(err, stockroom.ENOTFOUND) {
		t.Fatalf("GetWebhook after delete: %v", err)
	}
}
