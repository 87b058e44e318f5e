package kb

import (
	"reflect"
	"strings"
)

// Counts is the number of rows in each table, by its YAML key (what `kb
// status` shows per layer).
func (k *KB) Counts() map[string]int {
	out := map[string]int{}
	v := reflect.ValueOf(k.Facts)
	t := v.Type()
	for i := range t.NumField() {
		if t.Field(i).Type.Kind() != reflect.Slice {
			continue
		}
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if key == "" || key == "-" {
			continue
		}
		out[key] = v.Field(i).Len()
	}
	return out
}
