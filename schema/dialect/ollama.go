package dialect

// ollamaTable is what Ollama's grammar-constrained format takes, from its
// documentation and its grammar converter's keywords. It returns a new table each call: the
// tables are values, never shared state.
func ollamaTable() *tableDialect {
	return &tableDialect{
		name: Ollama,
		rules: tableRules(
			[]string{"const", "oneOf", "allOf", "additionalProperties", "prefixItems", "minItems", "maxItems", "pattern",
				"minLength", "maxLength", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "definitions"},
			[]string{"multipleOf", "uniqueItems", "contains", "minContains", "maxContains", "not", "if", "then", "else",
				"patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies",
				"minProperties", "maxProperties", "unevaluatedProperties", "unevaluatedItems"},
		),
		formats:     setOf("date-time", "date", "time", "uuid"),
		maxMinItems: -1,
	}
}
