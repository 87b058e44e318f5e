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

// CountsByLayer is Counts for each layer of Layers: the rows of each table
// that come from it. A table a layer gives no row is left out.
func (k *KB) CountsByLayer() []map[string]int {
	ls := k.Layers()
	out := make([]map[string]int, len(ls))
	for i := range out {
		out[i] = map[string]int{}
	}
	for table, n := range k.Counts() {
		rows, ok := k.layerOf[table]
		if !ok {
			if n > 0 {
				out[0][table] = n
			}
			continue
		}
		for _, l := range rows {
			out[l][table]++
		}
	}
	return out
}
