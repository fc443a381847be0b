package dialect

// geminiTable is the subset of JSON Schema Gemini's responseJsonSchema
// takes, from its documentation. It returns a new table each call: the
// tables are values, never shared state.
func geminiTable() *tableDialect {
	return &tableDialect{
		name: Gemini,
		rules: tableRules(
			[]string{"format", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "additionalProperties", "$id", "$anchor", "definitions"},
			[]string{"const", "allOf", "minLength", "maxLength", "pattern", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
				"uniqueItems", "contains", "minContains", "maxContains", "not", "if", "then", "else", "patternProperties",
				"propertyNames", "dependentRequired", "dependentSchemas", "dependencies", "minProperties", "maxProperties",
				"unevaluatedProperties", "unevaluatedItems", "oneOf"},
		),
		formats:          setOf("date-time", "date", "time", "duration", "email", "uri", "uuid", "ipv4", "ipv6", "hostname"),
		oneOfAsAnyOf:     true,
		propertyOrdering: true,
		maxMinItems:      -1,
	}
}
