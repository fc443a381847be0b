module github.com/agentio/agentio/examples/stream

go 1.23.0

require (
	github.com/agentio/agentio v0.0.0
	github.com/agentio/agentio/provider/openai v0.0.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/openai/openai-go/v3 v3.44.0 // indirect
	github.com/tidwall/gjson v1.18.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace (
	github.com/agentio/agentio => ../..
	github.com/agentio/agentio/provider/openai => ../../provider/openai
)
