package jsonraw

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLocate(t *testing.T) {
	doc := []byte("{\n  \"type\": \"object\",\n  \"properties\": {\n    \"odd key\": {\"type\": \"strin\"},\n    \"list\": {\"items\": [{}, {\"minLength\": -1}]}\n  }\n}\n")
	tests := []struct {
		path      string
		line, col int
	}{
		{"$", 1, 1},
		{"$.type", 2, 11},
		{"$.properties['odd key'].type", 4, 25},
		{"$.properties.list.items[1].minLength", 5, 42},
		{"$.properties.missing.type", 3, 17},
		{"$.type.deeper", 2, 11},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			off, ok := Locate(doc, tt.path)
			assert.True(t, ok)
			line, col := LineCol(doc, off)
			assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{line, col})
		})
	}
	_, ok := Locate(doc, "properties")
	assert.False(t, ok)
	_, ok = Locate([]byte(""), "$")
	assert.False(t, ok)
}

func FuzzLocate(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"x"}]}`), "$.a[1].b")
	f.Add([]byte(`{"a":"\"}"}`), "$['a']")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		off, ok := Locate(data, path)
		if ok && (off < 0 || off > len(data)) {
			t.Fatalf("offset %d out of range", off)
		}
		LineCol(data, off)
	})
}
