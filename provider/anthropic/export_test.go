package anthropic

import "github.com/agentio/agentio/provider"

// SetBatchLimits lowers p's batch limits, so that tests can exceed them
// without building 256 MB.
func SetBatchLimits(p *Provider, l provider.BatchLimits) { p.limits = l }

// ResultOf exposes the result line parser to the fuzz test.
var ResultOf = resultOf
