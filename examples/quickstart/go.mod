module github.com/agentio/agentio/examples/quickstart

go 1.23.0

require (
	github.com/agentio/agentio v0.0.0
	github.com/agentio/agentio/provider/anthropic v0.0.0
	github.com/agentio/agentio/provider/openai v0.0.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/anthropics/anthropic-sdk-go v1.46.0 // indirect
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/invopop/jsonschema v0.13.0 // indirect
	github.com/mailru/easyjson v0.7.7 // indirect
	github.com/openai/openai-go/v3 v3.44.0 // indirect
	github.com/standard-webhooks/standard-webhooks/libraries v0.0.1 // indirect
	github.com/tidwall/gjson v1.18.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	github.com/wk8/go-ordered-map/v2 v2.1.8 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sync v0.16.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace (
	github.com/agentio/agentio => ../..
	github.com/agentio/agentio/provider/anthropic => ../../provider/anthropic
	github.com/agentio/agentio/provider/openai => ../../provider/openai
)
