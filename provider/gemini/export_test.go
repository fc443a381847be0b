package gemini

import (
	"encoding/json"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

// SetBatchLimits lowers p's batch limits, so that tests can exceed them
// without building 20 MB.
func SetBatchLimits(p *Provider, l provider.BatchLimits) { p.limits = l }

// ResultOf exposes the inlined response mapping to the fuzz test.
func ResultOf(state genai.JobState, in *genai.InlinedResponse) (provider.BatchResult, error) {
	return resultOf(state, in)
}

// BatchOf exposes the batch mapping, with the body the SDK leaves out, to
// the fuzz test.
func BatchOf(job *genai.BatchJob, body []byte) *provider.Batch {
	var op operation
	if err := json.Unmarshal(body, &op); err != nil {
		return batchOf(job, nil)
	}
	return batchOf(job, &op)
}
