module github.com/agentio/agentio

go 1.26.0

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/stretchr/testify v1.12.1
)

// Pulled in by testify (assert's YAML comparisons); agentio does not use it.
require go.yaml.in/yaml/v3 v3.0.6 // indirect
