package stockroom_test

import (
	"testing"

	"github.com/stockroom/stockroom"
)

// TestOrderChangeSetsEveryText: a change giving both texts sets both, on a
// new order (POST) and on one that has them (PUT), and says it changed.
func TestOrderChangeSetsEveryText(t *testing.T) {
	text := func(s string) *string { return &s }
	for _, tc := range []struct {
		what              string
		before            stockroom.OrderHead
		reference, remark *string
		want              stockroom.OrderHead
		changed           bool
	}{
		{"both on a new order", stockroom.OrderHead{}, text("REQ-1"), text("Dock 3"), stockroom.OrderHead{Reference: "REQ-1", Remark: "Dock 3"}, true},
		{"both changed", stockroom.OrderHead{Reference: "A", Remark: "a"}, text("B"), text("b"), stockroom.OrderHead{Reference: "B", Remark: "b"}, true},
		{"the remark only", stockroom.OrderHead{Reference: "A", Remark: "a"}, text("A"), text("b"), stockroom.OrderHead{Reference: "A", Remark: "b"}, true},
		{"the reference only", stockroom.OrderHead{Reference: "A", Remark: "a"}, text("B"), nil, stockroom.OrderHead{Reference: "B", Remark: "a"}, true},
		{"neither", stockroom.OrderHead{Reference: "A", Remark: "a"}, text("A"), text("a"), stockroom.OrderHead{Reference: "A", Remark: "a"}, false},
	} {
		o := stockroom.PurchaseOrder{PONo: "PO-1", OrderHead: tc.before}
		o.Status = stockroom.OrderOpen
		changed, err := stockroom.OrderChange{Reference: tc.reference, Remark: tc.remark}.Apply(&o)
		if err != nil || changed != tc.changed || o.Reference != tc.want.Reference || o.Remark != tc.want.Remark {
			t.Errorf("%s: reference %q, remark %q, changed %t, %v; want %q, %q, %t",
				tc.what, o.Reference, o.Remark, changed, err, tc.want.Reference, tc.want.Remark, tc.changed)
		}
	}
}
