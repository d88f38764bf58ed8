package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The README's expected answers are JSON that may leave things out; these
// compare them with what the server sent.

// "..." in the README's JSON stands for fields left out of an object
// (anywhere in it) or for more elements at the end of an array.
var (
	elidedAtObjectEnd = regexp.MustCompile(`,?\s*\.\.\.\s*}`)
	elidedInObject    = regexp.MustCompile(`([{,])\s*\.\.\.\s*,`)
	elidedInArray     = regexp.MustCompile(`,?\s*\.\.\.\s*]`)
)

// moreElements stands for "..." in an array: moreMarker as JSON text,
// moreElements once decoded.
const (
	moreMarker   = `"\u0000more"`
	moreElements = "\x00more"
)

// jsonContains reports whether got holds every field and element of want,
// README-style JSON in which "..." may stand for more.
func jsonContains(want string, got []byte) error {
	want = elidedAtObjectEnd.ReplaceAllString(want, "}")
	want = elidedInObject.ReplaceAllString(want, "$1")
	want = elidedInArray.ReplaceAllString(want, ","+moreMarker+"]")
	want = strings.ReplaceAll(want, "[,"+moreMarker, "["+moreMarker)
	var w, g any
	wd := json.NewDecoder(strings.NewReader(want))
	wd.UseNumber()
	if err := wd.Decode(&w); err != nil {
		return fmt.Errorf("the README's JSON does not parse: %w", err)
	}
	gd := json.NewDecoder(bytes.NewReader(got))
	gd.UseNumber()
	if err := gd.Decode(&g); err != nil {
		return fmt.Errorf("the answer is not JSON: %w", err)
	}
	return jsonHolds(w, g, "")
}

func jsonHolds(want, got any, path string) error {
	switch w := want.(type) {
	case map[string]any:
		gm, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %v", path, got)
		}
		for k, wv := range w {
			gv, ok := gm[k]
			if !ok {
				return fmt.Errorf("%s.%s: missing", path, k)
			}
			if err := jsonHolds(wv, gv, path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		ga, ok := got.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %v", path, got)
		}
		more := len(w) > 0 && w[len(w)-1] == moreElements
		if more {
			w = w[:len(w)-1]
		}
		if len(ga) < len(w) || !more && len(ga) != len(w) {
			return fmt.Errorf("%s: %d elements, want %d", path, len(ga), len(w))
		}
		for i := range w {
			if err := jsonHolds(w[i], ga[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case json.Number:
		gn, ok := got.(json.Number)
		wf, _ := w.Float64()
		if gf, err := gn.Float64(); !ok || err != nil || gf != wf {
			return fmt.Errorf("%s: %v, want %v", path, got, w)
		}
	default:
		if want != got {
			return fmt.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	return nil
}

func TestJSONContains(t *testing.T) {
	got := []byte(`{"value":[{"id":2,"t":"x"},{"id":1,"t":"y"}],"total":2,"n":12.5}`)
	for want, ok := range map[string]bool{
		`{"total":2}`:                           true,
		`{"n":12.50}`:                           true,
		`{"value":[{"id":2}, ...], ...}`:        true,
		`{"value":[...],"total":2}`:             true,
		`{..., "total":2, ...}`:                 true,
		`{"value":[{"id":2},{"id":1}]}`:         true,
		`{"value":[{"id":2}]}`:                  false, // more elements than shown, and no "..."
		`{"value":[{"id":1}, ...]}`:             false,
		`{"total":3}`:                           false,
		`{"missing":null}`:                      false,
		`{"value":[{"id":2},{"id":1},{}, ...]}`: false,
	} {
		if err := jsonContains(want, got); (err == nil) != ok {
			t.Errorf("jsonContains(%s): %v, want ok=%t", want, err, ok)
		}
	}
}
