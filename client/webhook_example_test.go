package client_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// A webhook receiver: read the body (capped: a real delivery is far smaller),
// verify its signature against the exact bytes, then answer 2xx quickly and
// do the work afterwards. Any other answer, or none within 10 s, and
// Stockroom delivers the event again later, so the handler must tolerate an
// event id it has already seen.
func ExampleVerifyWebhook() {
	secret := "whsec_..." // shown once when the subscription was created
	receiver := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err := client.VerifyWebhook(secret, r.Header.Get(client.WebhookSignatureHeader), body); err != nil {
			log.Printf("refused delivery %s: %v", r.Header.Get("Stockroom-Event-Id"), err)
			http.Error(w, "bad signature", http.StatusBadRequest)
			return
		}
		fmt.Println("received", r.Header.Get("Stockroom-Event-Type"))
		w.WriteHeader(http.StatusNoContent) // then queue the event for processing
	})

	// What Stockroom sends, played against the receiver.
	body := `{"id":"ev_1","type":"item.created"}`
	for _, signedWith := range []string{secret, "another secret"} {
		req := httptest.NewRequest(http.MethodPost, "/hooks/stockroom", strings.NewReader(body))
		req.Header.Set("Stockroom-Event-Id", "ev_1")
		req.Header.Set("Stockroom-Event-Type", "item.created")
		req.Header.Set(client.WebhookSignatureHeader, stockroom.SignWebhook(signedWith, time.Now(), []byte(body)))
		rec := httptest.NewRecorder()
		receiver.ServeHTTP(rec, req)
		fmt.Println(rec.Code)
	}
	// Output:
	// received item.created
	// 204
	// 400
}
