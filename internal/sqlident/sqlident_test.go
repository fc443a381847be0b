package sqlident_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/internal/sqlident"
)

func TestValid(t *testing.T) {
	for name, want := range map[string]bool{
		"t": true, "_t9": true, "s.t": true, "Schema_1.table_2": true,
		"": false, "9t": false, "t-1": false, "a.b.c": false, `t"; DROP TABLE x; --`: false, "s.": false, ".t": false, "t t": false,
	} {
		assert.Equal(t, want, sqlident.Valid(name, 20), "%q", name)
	}
	assert.True(t, sqlident.Valid("abcde", 5))
	assert.False(t, sqlident.Valid("abcdef", 5), "longer than max")
}

func TestQuote(t *testing.T) {
	assert.Equal(t, `"t"`, sqlident.Quote("t"))
	assert.Equal(t, `"s"."t_items"`, sqlident.Quote("s.t_items"))
}

func TestPlaceholders(t *testing.T) {
	for engine, want := range map[string]string{"": "?", "sqlite": "?", "postgres": "$3"} {
		ph, ok := sqlident.Placeholders(engine)
		if assert.True(t, ok, engine) {
			assert.Equal(t, want, ph(3), engine)
		}
	}
	_, ok := sqlident.Placeholders("mysql")
	assert.False(t, ok)
}
