module github.com/agentio/agentio/benchmarks/repair

go 1.26.5

replace github.com/agentio/agentio => ../..

require (
	github.com/agentio/agentio v0.0.0
	github.com/kaptinlin/jsonrepair v0.2.15
)

require github.com/go-json-experiment/json v0.0.0-20251027170946-4849db3c2f7e // indirect
