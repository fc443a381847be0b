package otelagentio_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/otelagentio"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// readmeRun is the README's OpenTelemetry snippet (internal/readme checks
// that the README shows it as it is here).
func readmeRun(ctx context.Context, p provider.Provider, s *schema.Schema, tp *sdktrace.TracerProvider, mp *sdkmetric.MeterProvider) error {
	// snippet: otel
	in, err := otelagentio.New(&otelagentio.Options{TracerProvider: tp, MeterProvider: mp, ProviderName: "openai"})
	if err != nil {
		return err
	}
	// A span for the run, a "chat {model}" span per call with gen_ai.* attributes;
	// token, latency, attempt and outcome metrics.
	res, err := in.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s, enforce.WithMaxRetries(2))
	// end snippet
	_ = res
	return err
}

func TestREADMESnippet(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	s, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	p := providertest.New(providertest.Text(`{"verdict": "approve"}`))
	require.NoError(t, readmeRun(context.Background(), p, s, sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)), sdkmetric.NewMeterProvider()))
	require.Len(t, spans.GetSpans(), 2)
}
