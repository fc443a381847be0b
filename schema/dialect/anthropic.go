package dialect

// anthropicTable is Anthropic's structured-output subset, from its
// documentation of the JSON Schema its strict tools and outputs accept. It returns a new table each call: the
// tables are values, never shared state.
func anthropicTable() *tableDialect {
	return &tableDialect{
		name: Anthropic,
		rules: tableRules(
			[]string{"const", "allOf", "additionalProperties", "format", "pattern", "minItems", "default", "definitions"},
			[]string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
				"maxItems", "uniqueItems", "contains", "minContains", "maxContains", "prefixItems", "not", "if", "then", "else",
				"patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies",
				"minProperties", "maxProperties", "unevaluatedProperties", "unevaluatedItems", "oneOf"},
		),
		formats:      setOf("date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"),
		closeObjects: true,
		oneOfAsAnyOf: true,
		maxMinItems:  1,
		strict:       true,
	}
}
