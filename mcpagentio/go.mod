module github.com/agentio/agentio/mcpagentio

go 1.26.0

require (
	github.com/agentio/agentio v0.0.0
	github.com/modelcontextprotocol/go-sdk v1.3.1
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.3 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/oauth2 v0.30.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
)

replace github.com/agentio/agentio => ..
