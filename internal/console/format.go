package console

import (
	"encoding/json"
	"fmt"
)

// cellText is a value of a record the API answered, as text: numbers
// exactly as sent (json.Number), yes and no, objects and lists as compact
// JSON.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case json.Number:
		return x.String()
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}
