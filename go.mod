module github.com/agentio/agentio

go 1.26.0

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/stretchr/testify v1.12.1
)

// testify's own requirement, at testify's version: its assert package imports
// go.yaml.in/yaml/v3, so Go wants it listed for our tests. No agentio package
// (tests aside) imports it; internal/layout checks both.
require go.yaml.in/yaml/v3 v3.0.5 // indirect
